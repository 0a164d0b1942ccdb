import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';

/** camera/createFootageSeekpoints (py, js examples) and video/getExactFrameData (the MCP), as their clients call them. */
forEachDialect('footage seekpoints of the older API and exact frame data', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let camera: string;
  let theirCamera: string;
  const api = apiAs(server, () => org.apiKey);
  const yaml = `
locations: [{name: Main}]
cameras: [{name: Lobby, location: Main}]
`;
  before(async () => {
    org = await server().createOrg('Marks');
    const other = await server().createOrg('Other Marks');
    camera = (await seedYaml(server(), org.orgUuid, yaml)).cameras!['Lobby']!;
    theirCamera = (await seedYaml(server(), other.orgUuid, yaml)).cameras!['Lobby']!;
  });

  it("keeps py's single seekpoint and js's list, which getFootageSeekpointsV2 returns, each on the stream", async () => {
    const t0 = Date.now() - 600_000;
    const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
    try {
      await api.ok('/api/camera/createFootageSeekpoints', { cameraUuid: camera, footageSeekPoint: { a: 'CUSTOM', cdn: 'Py mark', ts: t0 } });
      await api.ok('/api/camera/createFootageSeekpoints', {
        cameraUuid: camera,
        footageSeekPoints: [
          { a: 'CUSTOM', cdn: 'Js mark', ts: t0 + 1000 },
          { a: 'CUSTOM', ts: t0 + 2000 },
        ],
      });
      await watch.waitFor((c) => c.entity === 'CUSTOM_SEEKPOINT' && c.type === 'CREATE' && c.update?.name === 'Js mark', 'the CREATE change');
    } finally {
      await watch.close();
    }
    const read = await api.ok('/api/camera/getFootageSeekpointsV2', { cameraUuid: camera, startTime: Math.floor(t0 / 1000) - 1, duration: 60 });
    const custom = read.footageSeekPoints.filter((p: any) => p.a === 'CUSTOM').map((p: any) => [p.ts, p.cdn]);
    assert.deepEqual(custom, [
      [t0, 'Py mark'],
      [t0 + 1000, 'Js mark'],
      [t0 + 2000, 'CUSTOM'],
    ]);
  });

  it("refuses another organization's camera as unknown and a seekpoint other than CUSTOM (400), writing nothing", async () => {
    const ts = Date.now() - 3_600_000;
    assert.equal(
      await api.refused('/api/camera/createFootageSeekpoints', { cameraUuid: theirCamera, footageSeekPoint: { a: 'CUSTOM', ts } }),
      'Camera not found',
    );
    const bad = await api.call('/api/camera/createFootageSeekpoints', { cameraUuid: camera, footageSeekPoint: { a: 'MOTION', ts } });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorMsg, /footageSeekPoint/);
    const read = await api.ok('/api/camera/getFootageSeekpointsV2', { cameraUuid: camera, startTime: Math.floor(ts / 1000) - 1, duration: 10 });
    assert.deepEqual(read.footageSeekPoints, []);
  });

  it('answers the frame itself as a base64 JPEG, a cropped part smaller, and refuses a part past the edge', async () => {
    const at = Date.now() - 60_000;
    const full = Buffer.from((await api.ok('/api/video/getExactFrameData', { cameraUuid: camera, timestampMs: at, downscaleFactor: 8 })).frameData, 'base64');
    assert.deepEqual([...full.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
    const part = Buffer.from(
      (
        await api.ok('/api/video/getExactFrameData', {
          cameraUuid: camera,
          timestampMs: at,
          downscaleFactor: 8,
          permyriadCropX: 2500,
          permyriadCropY: 2500,
          permyriadCropWidth: 5000,
          permyriadCropHeight: 5000,
        })
      ).frameData,
      'base64',
    );
    assert.deepEqual([...part.subarray(0, 2)], [0xff, 0xd8]);
    assert.deepEqual(jpegSize(part), { width: 120, height: 68 });
    assert.deepEqual(jpegSize(full), { width: 240, height: 136 });
    assert.match(
      await api.refused('/api/video/getExactFrameData', { cameraUuid: camera, timestampMs: at, permyriadCropX: 6000, permyriadCropWidth: 5000 }),
      /right edge/,
    );
    assert.equal(await api.refused('/api/video/getExactFrameData', { cameraUuid: theirCamera, timestampMs: at }), 'Camera not found');
  });
});

/** A baseline JPEG's size, from its start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let i = 2;
  while (i < jpeg.length) {
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  throw new Error('no frame header');
}
