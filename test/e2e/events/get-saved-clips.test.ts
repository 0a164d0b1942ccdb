import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { saveClips, seedEventsSite, seededRandom, type EventsSite } from './fixtures.js';

const T0 = Date.UTC(2024, 7, 1);

forEachDialect('POST /api/event/getSavedClipsV2', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let created: string[];
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
    // Runs of clips sharing a timestamp, some longer than a page.
    const random = seededRandom(7);
    const timestamps: number[] = [];
    for (let t = T0; timestamps.length < 400; t -= 1000) {
      const run = random() < 0.1 ? 12 : 1 + Math.floor(random() * 4);
      for (let k = 0; k < run; k++) timestamps.push(t);
    }
    created = await saveClips(server, site.org.orgUuid, site.lobby, timestamps);
  });
  after(() => server.close());
  const call = (body: unknown, key = site.org.apiKey) => server.call('/api/event/getSavedClipsV2', body, { key });

  it('requires authentication', async () => {
    assert.equal((await call({}, '')).status, 401);
  });

  it('pages newest first without gaps or repeats, even where many clips share a timestamp', async () => {
    for (const maxPageSize of [1, 5, 10, 64]) {
      const seen: Array<{ uuid: string; timestampMs: number }> = [];
      let pageTimestampMs: number | undefined;
      for (let page = 0; page < 1000; page++) {
        const r = await call({ maxPageSize, pageTimestampMs });
        assert.equal(r.json.error, false, r.text);
        seen.push(...r.json.savedClips);
        const shared = new Set(r.json.savedClips.map((c: any) => c.timestampMs)).size === 1;
        assert.ok(r.json.savedClips.length <= maxPageSize || shared, "a page exceeds maxPageSize only to hold one timestamp's clips");
        if (r.json.lastEvaluatedTimestampMs == null) break;
        assert.equal(r.json.lastEvaluatedTimestampMs, r.json.savedClips.at(-1).timestampMs);
        pageTimestampMs = r.json.lastEvaluatedTimestampMs;
      }
      assert.equal(seen.length, created.length, `maxPageSize ${maxPageSize}`);
      assert.deepEqual(seen.map((c) => c.uuid).sort(), [...created].sort());
      for (let k = 1; k < seen.length; k++) assert.ok(seen[k].timestampMs <= seen[k - 1].timestampMs, 'newest first');
    }
  });

  it('answers an empty page after the oldest clip', async () => {
    const r = await call({ pageTimestampMs: T0 - 10_000_000 });
    assert.deepEqual([r.json.savedClips, r.json.lastEvaluatedTimestampMs ?? null], [[], null]);
  });

  it('refuses a malformed body with 400', async () => {
    assert.equal((await call({ maxPageSize: 0 })).status, 400);
    assert.equal((await call({ maxPageSize: 1001 })).status, 400);
    assert.equal((await call({ pageTimestampMs: 'yesterday' })).status, 400);
  });

  it("never answers another organization's clips", async () => {
    const other = await server.createOrg('Clipless');
    assert.deepEqual((await call({}, other.apiKey)).json.savedClips, []);
  });

  describe('POST /api/event/getSavedClips (deprecated)', () => {
    it('still answers, with a warningMsg naming getSavedClipsV2 and a Deprecation header', async () => {
      const r = await server.call('/api/event/getSavedClips', {}, { key: site.org.apiKey });
      assert.equal(r.status, 200);
      assert.equal(r.json.error, false);
      assert.equal(r.json.savedClips.length, created.length);
      assert.match(r.json.warningMsg, /deprecated: use \/api\/event\/getSavedClipsV2/);
      assert.equal(r.headers.get('deprecation'), 'true');
      assert.match(r.headers.get('link') ?? '', /getSavedClipsV2>; rel="successor-version"/);
    });

    it('is marked deprecated in the OpenAPI document, and its successor is not', async () => {
      const doc = await (await fetch(server.rest + '/openapi.json')).json();
      assert.equal(doc.paths['/api/event/getSavedClips'].post.deprecated, true);
      assert.notEqual(doc.paths['/api/event/getSavedClipsV2'].post.deprecated, true);
    });

    it('requires authentication', async () => {
      assert.equal((await server.call('/api/event/getSavedClips', {}, { key: '' })).status, 401);
    });
  });
});
