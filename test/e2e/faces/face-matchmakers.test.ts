import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { makeJpeg, makePng } from './images.js';
import { upload } from './upload.js';

const M = '/api/faceRecognition/matchmaker';
const NO_SUCH = 'A'.repeat(22);

forEachDialect('face matchmakers', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  const call = (op: string, body: unknown, key = org.apiKey) => server.call(op.startsWith('/') ? op : `${M}/${op}`, body, { key });
  const pick = (r: { json: any }) => [r.json.error, r.json.errorMsg ?? undefined];
  const fileOf = (storageKey: string) => join(server.config.dataDir, 'media', storageKey);

  /** Uploads faces for a new person (created by the upload) and answers the person and the faces. */
  async function personWithFaces(name: string, count: number) {
    const files = Array.from({ length: count }, (_, i) => (i % 2 ? { name: `${name}.png`, bytes: makePng() } : { name: `${name}.jpg`, bytes: makeJpeg() }));
    const r = await upload(server, org.apiKey, files, { query: { createPersonIfNotFound: 'true', transaction: `tx-${name}` } });
    assert.ok(
      r.json.fileUploadResults.every((x: any) => x.success),
      r.text,
    );
    const log = (await call('findFaceUploadMetadataByTransaction', { transactionId: `tx-${name}` })).json.faceUploadMetadata;
    return { personUuid: log[0].personUuid as string, faceIds: log.map((m: any) => m.faceId as string), keys: log.map((m: any) => m.origS3Key as string) };
  }

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Faces Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  describe('POST /api/faceRecognition/matchmaker/findFaceMatchmakersByPerson', () => {
    it('requires authentication', async () => {
      assert.equal((await call('findFaceMatchmakersByPerson', { personUuid: NO_SUCH }, '')).status, 401);
    });

    it("answers the person's faces in upload order; another organization's person is not found", async () => {
      const { personUuid, faceIds } = await personWithFaces('Annie Easley', 3);
      const r = await call('findFaceMatchmakersByPerson', { personUuid });
      assert.deepEqual(
        r.json.faceMatchmakers.map((f: any) => f.id),
        faceIds,
      );
      assert.deepEqual(pick(await call('findFaceMatchmakersByPerson', { personUuid }, other.apiKey)), [true, 'Person not found']);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('findFaceMatchmakersByPerson', { personUuid: 12 })).status, 400);
    });
  });

  describe('POST /api/faceRecognition/matchmaker/findFaceMatchmakersByOrg', () => {
    it('requires authentication', async () => {
      assert.equal((await call('findFaceMatchmakersByOrg', {}, '')).status, 401);
    });

    it("answers every face of the organization and none of another's", async () => {
      const { faceIds } = await personWithFaces('Christine Darden', 2);
      const ours = (await call('findFaceMatchmakersByOrg', {})).json.faceMatchmakers;
      for (const id of faceIds) assert.ok(ours.some((f: any) => f.id === id));
      assert.ok(ours.every((f: any) => f.orgUuid === org.orgUuid));
      assert.deepEqual((await call('findFaceMatchmakersByOrg', {}, other.apiKey)).json.faceMatchmakers, []);
    });
  });

  describe('POST /api/faceRecognition/matchmaker/getFaceMatchmaker and getFaceMatchmakerImage', () => {
    it('requires authentication', async () => {
      assert.equal((await call('getFaceMatchmaker', { faceId: NO_SUCH }, '')).status, 401);
      assert.equal((await call('getFaceMatchmakerImage', { faceId: NO_SUCH }, '')).status, 401);
    });

    it('answers the face and its image to the owner organization only', async () => {
      const { faceIds } = await personWithFaces('Mae Jemison', 2);
      const face = (await call('getFaceMatchmaker', { faceId: faceIds[1] })).json.faceMatchmaker;
      assert.equal(face.id, faceIds[1]);
      const image = await call('getFaceMatchmakerImage', { faceId: faceIds[1] });
      assert.equal(image.json.faceMatchmaker.contentType, 'image/png');
      assert.deepEqual(Buffer.from(image.json.imageBase64, 'base64'), makePng());
      assert.deepEqual(pick(await call('getFaceMatchmaker', { faceId: faceIds[1] }, other.apiKey)), [true, 'Face matchmaker not found']);
      assert.deepEqual(pick(await call('getFaceMatchmakerImage', { faceId: faceIds[1] }, other.apiKey)), [true, 'Face matchmaker not found']);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('getFaceMatchmakerImage', {})).status, 400);
    });
  });

  describe('POST /api/faceRecognition/matchmaker/deleteFaceMatchmaker', () => {
    it('requires authentication', async () => {
      assert.equal((await call('deleteFaceMatchmaker', { faceId: NO_SUCH }, '')).status, 401);
    });

    it('deletes the face and its stored image; another organization cannot', async () => {
      const { personUuid, faceIds, keys } = await personWithFaces('Valerie Thomas', 2);
      assert.ok(existsSync(fileOf(keys[0])));
      assert.deepEqual(pick(await call('deleteFaceMatchmaker', { faceId: faceIds[0] }, other.apiKey)), [true, 'Face matchmaker not found']);
      assert.ok(existsSync(fileOf(keys[0])));
      assert.deepEqual(pick(await call('deleteFaceMatchmaker', { faceId: faceIds[0] })), [false, undefined]);
      assert.equal(existsSync(fileOf(keys[0])), false);
      assert.deepEqual(
        (await call('findFaceMatchmakersByPerson', { personUuid })).json.faceMatchmakers.map((f: any) => f.id),
        [faceIds[1]],
      );
      assert.deepEqual(pick(await call('deleteFaceMatchmaker', { faceId: faceIds[0] })), [true, 'Face matchmaker not found']);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('deleteFaceMatchmaker', { faceId: '' })).status, 400);
    });
  });

  describe('POST /api/faceRecognition/matchmaker/findFaceUploadMetadataByTransaction', () => {
    it('requires authentication', async () => {
      assert.equal((await call('findFaceUploadMetadataByTransaction', { transactionId: 'x' }, '')).status, 401);
    });

    it('answers an unknown transaction as an empty list', async () => {
      assert.deepEqual((await call('findFaceUploadMetadataByTransaction', { transactionId: 'never-used' })).json.faceUploadMetadata, []);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('findFaceUploadMetadataByTransaction', {})).status, 400);
    });
  });

  it("deleting a person deletes the person's faces and their stored images", async () => {
    const { personUuid, faceIds, keys } = await personWithFaces('Evelyn Boyd', 2);
    assert.deepEqual(pick(await call('/api/faceRecognition/person/deletePerson', { personUuid })), [false, undefined]);
    for (const key of keys) assert.equal(existsSync(fileOf(key)), false);
    for (const faceId of faceIds) assert.deepEqual(pick(await call('getFaceMatchmaker', { faceId })), [true, 'Face matchmaker not found']);
    const log = (await call('findFaceUploadMetadataByTransaction', { transactionId: 'tx-Evelyn Boyd' })).json.faceUploadMetadata;
    assert.equal(log.length, 2, 'the upload log outlives the person');
  });
});
