import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { findDevice } from '../../../src/domains/devices/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';
import { csvRecords } from './csv-parse.js';

/** The one file of a stored (uncompressed) ZIP archive: its name and text, its CRC checked. */
function onlyFile(zip: Buffer): { name: string; text: string } {
  assert.equal(zip.readUInt32LE(0), 0x04034b50, 'a local file header');
  assert.equal(zip.readUInt16LE(8), 0, 'stored');
  const size = zip.readUInt32LE(18);
  const nameLength = zip.readUInt16LE(26);
  const extra = zip.readUInt16LE(28);
  const name = zip.subarray(30, 30 + nameLength).toString('utf8');
  const data = zip.subarray(30 + nameLength + extra, 30 + nameLength + extra + size);
  assert.equal(crc32(data), zip.readUInt32LE(14));
  const end = zip.length - 22;
  assert.equal(zip.readUInt32LE(end), 0x06054b50, 'the end of the central directory');
  assert.equal(zip.readUInt16LE(end + 10), 1, 'one file');
  return { name, text: data.toString('utf8') };
}

forEachDialect('export/uptime', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;

  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Uptime Org');
    other = await seedEventsSite(server, 'Other Uptime Org');
  });
  after(() => server.close());

  const post = (body: unknown) =>
    fetch(`${server.rest}/api/export/uptime`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-apikey': site.org.apiKey },
      body: JSON.stringify(body),
    });

  describe('POST /api/export/uptime', () => {
    it("answers a ZIP holding each camera's online time per interval, from its connection history", async () => {
      const lobby = (await findDevice(server.gatehouse.deps, site.org.orgUuid, site.lobby))!;
      const offAt = Date.now();
      await simulate(server, 'connection', { device: site.lobby, offline: true, at: offAt });
      const range = { startDateTime: new Date(lobby.createdAtMillis - 3_600_000).toISOString(), endDateTime: new Date(offAt + 3_600_000).toISOString() };
      const r = await post({ ...range, deviceUuids: [`${site.lobby}.v0`], granularity: 'HOURS' });
      assert.equal(r.status, 200, await r.clone().text());
      assert.match(r.headers.get('content-type') ?? '', /^application\/zip/);
      const { name, text } = onlyFile(Buffer.from(await r.arrayBuffer()));
      assert.equal(name, 'uptime.csv');
      const rows = csvRecords(text);
      assert.ok(rows.length >= 2 && rows.length <= 4, text);
      assert.ok(rows.every((row) => row.deviceUuid === site.lobby));
      const total = rows.reduce((sum, row) => sum + Number(row.uptimeSeconds), 0);
      const expected = (offAt - Math.max(lobby.createdAtMillis, Math.floor((lobby.createdAtMillis - 3_600_000) / 1000) * 1000)) / 1000;
      assert.ok(Math.abs(total - expected) <= 2, `${total} vs ${expected}`);
      assert.ok(rows.every((row) => Number(row.uptimePercent) <= 100));
      assert.equal(rows[0].bucketStartMs, String(Math.floor((lobby.createdAtMillis - 3_600_000) / 3_600_000) * 3_600_000));

      // Every camera of the organization when none is named.
      const all = await post({ ...range, granularity: 'DAYS' });
      const cameras = new Set(csvRecords(onlyFile(Buffer.from(await all.arrayBuffer())).text).map((row) => row.deviceUuid));
      assert.deepEqual([...cameras].sort(), [site.lobby, site.dock].sort());
    });

    it("refuses another organization's camera, an inverted range and an unsupported granularity", async () => {
      const range = { startDateTime: '2024-06-01T00:00:00Z', endDateTime: '2024-06-02T00:00:00Z' };
      const refused = async (body: unknown) => {
        const r = await post(body);
        const json = (await r.json()) as { error: boolean; errorMsg: string };
        assert.equal(json.error, true);
        return json.errorMsg;
      };
      assert.equal(await refused({ ...range, deviceUuids: [other.lobby] }), `Camera ${other.lobby} not found`);
      assert.equal(await refused({ startDateTime: range.endDateTime, endDateTime: range.startDateTime }), 'startDateTime must not be after endDateTime');
      assert.match(await refused({ ...range, granularity: 'SECONDS' }), /granularity SECONDS/);
      assert.match(await refused({ endDateTime: range.endDateTime }), /startDateTime/);
    });
  });
});
