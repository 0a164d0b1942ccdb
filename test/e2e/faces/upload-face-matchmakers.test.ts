import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { makeGif, makeJpeg, makePng } from './images.js';
import { upload } from './upload.js';

const MB = 1024 * 1024;
const RUUID = /^[A-Za-z0-9_-]{22}$/;

forEachDialect('POST /api/faceRecognition/matchmaker/uploadFaceMatchmakers', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let grace: string;
  const people = (key: string) => server.call('/api/faceRecognition/person/findPeopleByOrg', {}, { key });
  const facesOf = (personUuid: string, key = org.apiKey) => server.call('/api/faceRecognition/matchmaker/findFaceMatchmakersByPerson', { personUuid }, { key });

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Faces Org');
    other = await server.createOrg('Other Org');
    const created = await server.call('/api/faceRecognition/person/createPerson', { name: 'Grace Hopper' }, { key: org.apiKey });
    grace = created.json.person.uuid;
  });
  after(() => server.close());

  it('requires authentication', async () => {
    const r = await upload(server, '', [{ name: 'Grace Hopper.jpg', bytes: makeJpeg() }]);
    assert.equal(r.status, 401);
    assert.equal(r.json.errorMsg, 'Unauthenticated');
  });

  it('stores a real JPEG as the face of the person its file name names, ignoring case and white space', async () => {
    const jpeg = makeJpeg({ width: 16, height: 24 });
    const r = await upload(server, org.apiKey, [{ name: 'GRACE  hopper.JPG', bytes: jpeg }], { query: { transaction: 'tx-jpeg' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { error: false, transactionId: 'tx-jpeg', fileUploadResults: [{ fileName: 'GRACE  hopper.JPG', message: null, success: true }] });
    const faces = (await facesOf(grace)).json.faceMatchmakers;
    assert.equal(faces.length, 1);
    assert.equal(faces[0].personUuid, grace);
    assert.equal(faces[0].orgUuid, org.orgUuid);
    assert.equal(faces[0].uploaded, true);
    // What is known of the stored image is Gatehouse's own answer (the catalogue's face has none of it).
    const image = await server.call('/api/faceRecognition/matchmaker/getFaceMatchmakerImage', { faceId: faces[0].id }, { key: org.apiKey });
    assert.equal(image.json.contentType, 'image/jpeg');
    const stored = image.json.faceMatchmaker;
    assert.deepEqual([stored.contentType, stored.width, stored.height, stored.byteCount, stored.transactionId], ['image/jpeg', 16, 24, jpeg.length, 'tx-jpeg']);
    assert.deepEqual(Buffer.from(image.json.imageBase64, 'base64'), jpeg);
    const dir = join(server.config.dataDir, 'media', org.orgUuid, 'faces', grace);
    assert.deepEqual(readdirSync(dir), [`${faces[0].id}.jpg`]);
  });

  it('stores a real PNG, and generates a transaction id when none is given', async () => {
    const png = makePng(5, 7);
    const r = await upload(server, org.apiKey, [{ name: 'grace hopper.png', bytes: png, type: 'image/png' }]);
    assert.equal(r.json.fileUploadResults[0].success, true, r.text);
    assert.match(r.json.transactionId, RUUID);
    const [made] = (
      await server.call('/api/faceRecognition/matchmaker/findFaceUploadMetadataByTransaction', { transactionId: r.json.transactionId }, { key: org.apiKey })
    ).json.faceUploadMetadata;
    const face = (await server.call('/api/faceRecognition/matchmaker/getFaceMatchmakerImage', { faceId: made.faceId }, { key: org.apiKey })).json
      .faceMatchmaker;
    assert.deepEqual([face.contentType, face.width, face.height], ['image/png', 5, 7]);
  });

  it('refuses a GIF renamed to .jpg, by its content', async () => {
    const r = await upload(server, org.apiKey, [{ name: 'Grace Hopper.jpg', bytes: makeGif(), type: 'image/jpeg' }]);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.fileUploadResults, [
      { fileName: 'Grace Hopper.jpg', success: false, message: 'Grace Hopper.jpg is not a JPEG or PNG image (its content is image/gif)' },
    ]);
  });

  it('refuses a PNG that is cut short and a JPEG without a frame', async () => {
    const png = makePng();
    const jpeg = makeJpeg();
    const noFrame = Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xd9])]);
    const r = await upload(server, org.apiKey, [
      { name: 'Grace Hopper.png', bytes: png.subarray(0, png.length - 20) },
      { name: 'Grace Hopper.jpg', bytes: noFrame },
    ]);
    assert.deepEqual(
      r.json.fileUploadResults.map((x: any) => [x.success, x.message]),
      [
        [false, 'Grace Hopper.png is not a valid PNG image: chunk IDAT runs past the end of the file'],
        [false, 'Grace Hopper.jpg is not a valid JPEG image: it ends before any image data'],
      ],
    );
  });

  it('refuses a 6 MB file while the other files of the same upload succeed, answering in order', async () => {
    const before = (await facesOf(grace)).json.faceMatchmakers.length;
    const r = await upload(
      server,
      org.apiKey,
      [
        { name: 'Grace Hopper.jpg', bytes: makeJpeg() },
        { name: 'Grace Hopper big.jpg', bytes: makeJpeg({ padding: 6 * MB }) },
        { name: 'Grace Hopper.png', bytes: makePng() },
        { name: 'grace hopper.gif', bytes: makeGif() },
      ],
      { query: { transaction: 'tx-mixed' } },
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json.fileUploadResults.map((x: any) => [x.fileName, x.success]),
      [
        ['Grace Hopper.jpg', true],
        ['Grace Hopper big.jpg', false],
        ['Grace Hopper.png', true],
        ['grace hopper.gif', false],
      ],
    );
    assert.equal(r.json.fileUploadResults[1].message, 'Grace Hopper big.jpg is larger than the 5 MB limit');
    assert.equal((await facesOf(grace)).json.faceMatchmakers.length, before + 2);
    const log = await server.call('/api/faceRecognition/matchmaker/findFaceUploadMetadataByTransaction', { transactionId: 'tx-mixed' }, { key: org.apiKey });
    const rows = log.json.faceUploadMetadata;
    assert.deepEqual(
      rows.map((m: any) => [m.success, m.personUuid, m.transactionId, m.orgUuid, 'fileName' in m]),
      [
        [true, grace, 'tx-mixed', org.orgUuid, false],
        [false, null, 'tx-mixed', org.orgUuid, false],
        [true, grace, 'tx-mixed', org.orgUuid, false],
        [false, null, 'tx-mixed', org.orgUuid, false],
      ],
    );
    assert.equal(rows[1].errorMsg, 'Grace Hopper big.jpg is larger than the 5 MB limit');
    assert.equal(rows[0].origS3Key, `${org.orgUuid}/faces/${grace}/${rows[0].faceId}.jpg`);
  });

  it('accepts a file of exactly 5 MB and refuses one byte more', async () => {
    const exact = makeJpeg({ padding: 0 });
    const fiveMb = makeJpeg({ padding: 5 * MB - exact.length });
    const oneMore = makeJpeg({ padding: 5 * MB - exact.length + 1 });
    assert.equal(fiveMb.length, 5 * MB);
    const r = await upload(server, org.apiKey, [
      { name: 'Grace Hopper.jpg', bytes: fiveMb },
      { name: 'Grace Hopper.jpg', bytes: oneMore },
    ]);
    assert.deepEqual(
      r.json.fileUploadResults.map((x: any) => x.success),
      [true, false],
    );
  });

  it('refuses a name that matches nobody, and creates the person with createPersonIfNotFound', async () => {
    const refused = await upload(server, org.apiKey, [{ name: 'Ada Lovelace.jpg', bytes: makeJpeg() }]);
    assert.deepEqual(refused.json.fileUploadResults, [
      { fileName: 'Ada Lovelace.jpg', success: false, message: 'No person named "Ada Lovelace" was found (set createPersonIfNotFound to create one)' },
    ]);
    assert.equal(
      (await people(org.apiKey)).json.people.some((p: any) => p.name === 'Ada Lovelace'),
      false,
    );

    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const created = await upload(
      server,
      org.apiKey,
      [
        { name: 'Ada Lovelace.jpg', bytes: makeJpeg() },
        { name: 'ada lovelace.png', bytes: makePng() },
      ],
      {
        query: { createPersonIfNotFound: 'true' },
      },
    );
    unsubscribe();
    assert.deepEqual(
      created.json.fileUploadResults.map((x: any) => x.success),
      [true, true],
    );
    const ada = (await people(org.apiKey)).json.people.filter((p: any) => p.name === 'Ada Lovelace');
    assert.equal(ada.length, 1, 'the second file finds the person the first one created');
    assert.equal((await facesOf(ada[0].uuid)).json.faceMatchmakers.length, 2);
    assert.deepEqual(
      events.map((e) => [e.entity, e.type, e.orgUuid]),
      [
        ['PERSON', 'CREATE', org.orgUuid],
        ['FACE_MATCHMAKER', 'CREATE', org.orgUuid],
        ['FACE_MATCHMAKER', 'CREATE', org.orgUuid],
      ],
    );
  });

  it('takes the transaction and createPersonIfNotFound as form fields too, after the files or before them', async () => {
    const after = await upload(server, org.apiKey, [{ name: 'Katherine Johnson.jpg', bytes: makeJpeg() }], {
      fields: { transaction: 'tx-form', createPersonIfNotFound: 'true' },
    });
    assert.equal(after.json.transactionId, 'tx-form');
    assert.equal(after.json.fileUploadResults[0].success, true, after.text);
    const before = await upload(server, org.apiKey, [{ name: 'Dorothy Vaughan.png', bytes: makePng() }], {
      fields: { transaction: 'tx-form-2', createPersonIfNotFound: 'true' },
      fieldsFirst: true,
    });
    assert.equal(before.json.transactionId, 'tx-form-2');
    assert.equal(before.json.fileUploadResults[0].success, true, before.text);
  });

  it('matches only the caller organization’s people and stores under its own media folder', async () => {
    const r = await upload(server, other.apiKey, [{ name: 'Grace Hopper.jpg', bytes: makeJpeg() }]);
    assert.equal(r.json.fileUploadResults[0].success, false);
    assert.match(r.json.fileUploadResults[0].message, /No person named "Grace Hopper"/);
    assert.equal(existsSync(join(server.config.dataDir, 'media', other.orgUuid, 'faces', grace)), false);
    const log = await server.call('/api/faceRecognition/matchmaker/findFaceUploadMetadataByTransaction', { transactionId: 'tx-jpeg' }, { key: other.apiKey });
    assert.deepEqual(log.json.faceUploadMetadata, [], "another organization's transaction reads as empty");
  });

  it('answers a form without any file as an error, and a bad createPersonIfNotFound as an error', async () => {
    const none = await upload(server, org.apiKey, [], { fields: { transaction: 'empty' } });
    assert.equal(none.status, 200);
    assert.deepEqual([none.json.error, none.json.errorMsg], [true, 'the upload holds no image file']);
    const bad = await upload(server, org.apiKey, [{ name: 'Grace Hopper.jpg', bytes: makeJpeg() }], { query: { createPersonIfNotFound: 'maybe' } });
    assert.deepEqual([bad.json.error, bad.json.errorMsg], [true, 'createPersonIfNotFound must be true or false, got "maybe"']);
  });

  it('refuses a file named only by its extension', async () => {
    const r = await upload(server, org.apiKey, [{ name: '.jpg', bytes: makeJpeg() }], { query: { createPersonIfNotFound: 'true' } });
    assert.deepEqual(r.json.fileUploadResults, [{ fileName: '.jpg', success: false, message: 'the file has no name to match a person by' }]);
  });

  it('answers 413 to a form of more than 20 files, keeping none of them', async () => {
    const before = (await facesOf(grace)).json.faceMatchmakers.length;
    const files = Array.from({ length: 21 }, () => ({ name: 'Grace Hopper.jpg', bytes: makeJpeg() }));
    const r = await upload(server, org.apiKey, files);
    assert.equal(r.status, 413, r.text);
    assert.equal(r.json.error, true);
    assert.equal((await facesOf(grace)).json.faceMatchmakers.length, before);
  });

  it('answers 400 to a JSON body', async () => {
    const r = await server.call('/api/faceRecognition/matchmaker/uploadFaceMatchmakers', { file: 'Grace Hopper.jpg' }, { key: org.apiKey });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /multipart\/form-data/);
  });

  it('leaves no staged file behind', async () => {
    for (const o of [org, other]) {
      const incoming = join(server.config.dataDir, 'media', o.orgUuid, 'faces', '.incoming');
      assert.deepEqual(existsSync(incoming) ? readdirSync(incoming) : [], []);
    }
  });
});
