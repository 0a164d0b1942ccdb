import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkImage } from '../../src/footage/image-check.js';
import { personMatchKey, personNameOfFile } from '../../src/domains/faces/names.js';
import { makeGif, makeJpeg, makePng } from '../e2e/faces/images.js';

const reason = async (bytes: Buffer) => {
  const r = await checkImage(bytes);
  return r.ok ? 'ok' : r.reason;
};

describe('checkImage', () => {
  it('accepts a baseline JPEG and answers its size', async () => {
    assert.deepEqual(await checkImage(makeJpeg({ width: 40, height: 30 })), { ok: true, mime: 'image/jpeg', ext: 'jpg', width: 40, height: 30 });
  });

  it('accepts a PNG and answers its size', async () => {
    assert.deepEqual(await checkImage(makePng(9, 2)), { ok: true, mime: 'image/png', ext: 'png', width: 9, height: 2 });
  });

  it('names what a refused file is', async () => {
    assert.equal(await reason(makeGif()), 'is not a JPEG or PNG image (its content is image/gif)');
    assert.equal(await reason(Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')), 'is not a JPEG or PNG image (its content is application/pdf)');
    assert.equal(await reason(Buffer.from('just some text')), 'is not a JPEG or PNG image (its content is of no known image type)');
    assert.equal(await reason(Buffer.alloc(0)), 'is not a JPEG or PNG image (its content is of no known image type)');
  });

  it('refuses a PNG signature without a valid header, image data or end', async () => {
    const png = makePng();
    assert.equal(await reason(png.subarray(0, 8 + 25 + 4)), 'is not a valid PNG image: it ends before its IEND chunk');
    const zeroWidth = Buffer.from(png);
    zeroWidth.writeUInt32BE(0, 16);
    assert.equal(await reason(zeroWidth), 'is not a valid PNG image: its width or height is 0');
    const badDepth = Buffer.from(png);
    badDepth[24] = 3; // bit depth 3 does not exist
    assert.equal(await reason(badDepth), 'is not a valid PNG image: its IHDR header is invalid');
    const ihdrAndEnd = Buffer.concat([png.subarray(0, 33), png.subarray(png.length - 12)]);
    assert.equal(await reason(ihdrAndEnd), 'is not a valid PNG image: it has no image data');
  });

  it('refuses a JPEG whose segments do not hold together', async () => {
    const jpeg = makeJpeg();
    assert.equal(await reason(jpeg.subarray(0, 30)), 'is not a valid JPEG image: a segment runs past the end of the file');
    assert.equal(await reason(jpeg.subarray(0, jpeg.length - 2)), 'is not a valid JPEG image: it has no end-of-image marker');
    const sofAt = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const noSize = Buffer.from(jpeg);
    noSize.writeUInt16BE(0, sofAt + 5);
    assert.equal(await reason(noSize), 'is not a valid JPEG image: its frame has no size or no components');
    const withoutFrame = Buffer.concat([jpeg.subarray(0, sofAt), jpeg.subarray(sofAt + 13)]);
    assert.equal(await reason(withoutFrame), 'is not a valid JPEG image: its scan comes before any frame header');
  });
});

describe('face file names', () => {
  it('match a person whatever the case and white space', () => {
    assert.equal(personMatchKey('Grace  Hopper'), personMatchKey(' grace\thopper '));
    assert.equal(personMatchKey('GRACEHOPPER'), 'gracehopper');
    assert.notEqual(personMatchKey('Grace Hopper'), personMatchKey('Grace_Hopper'));
  });

  it('name the person by the base name without its extension', () => {
    assert.equal(personNameOfFile('Grace Hopper.jpg'), 'Grace Hopper');
    assert.equal(personNameOfFile('C:\\photos\\Grace Hopper.PNG'), 'Grace Hopper');
    assert.equal(personNameOfFile('faces/Dr. Grace M. Hopper.jpeg'), 'Dr. Grace M. Hopper');
    assert.equal(personNameOfFile('.jpg'), '', 'a file named only by its extension names nobody');
    assert.equal(personNameOfFile('noextension'), 'noextension');
  });
});
