// Issue 32's media targets, on the build, with SQLite:
// - a cached footage segment is served within 0.8 of a bare Fastify static file route serving the same bytes
//   (throughput of CONNECTIONS concurrent keep-alive clients, alternating rounds, median round each);
// - a cold 2-second 720p segment encodes in at most a quarter of its duration (median of ENCODES encodes of
//   different instants, through the media host's own encoder);
// - CAMERAS cameras x WINDOW_S of VOD fetched by CLIENTS concurrent clients (each client every camera's window,
//   MPD then init then each segment, starting at a different camera) encode every segment once, never twice
//   at once, and the cache stays within its bound. The size is 20 x 600 s: about 6,000 encodes, over
//   half an hour on two shared cores, so the default window is 20 s (BENCH_MEDIA_WINDOW_S=600 for the full run).
//   BENCH_DURATION_S (3, per round)  BENCH_ROUNDS (3)  BENCH_MEDIA_ENCODES (5)  BENCH_MEDIA_WINDOW_S (20)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { built } from './lib/built.js';
import { record } from './lib/results.js';
import { createTestDatabase } from '../test/helpers/databases.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENCODES = Number(process.env.BENCH_MEDIA_ENCODES ?? 5);
const WINDOW_S = Number(process.env.BENCH_MEDIA_WINDOW_S ?? 20);
const CAMERAS = 20;
const CLIENTS = 20;
const CONNECTIONS = 20;
const SEGMENT_S = 2;
const TARGETS = { served: 0.8, encode: 0.25 };

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { seedSite } = await built<typeof import('../src/domains/sites/service.js')>('domains/sites/service.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Requests per second of CONNECTIONS clients fetching `url` over and over for DURATION_S (every answer read whole). */
async function throughput(url: string, headers: Record<string, string>, bytes: number): Promise<number> {
  const deadline = performance.now() + DURATION_S * 1000;
  let count = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const r = await fetch(url, { headers });
      const body = await r.arrayBuffer();
      if (r.status !== 200 || body.byteLength !== bytes) throw new Error(`${url}: ${r.status}, ${body.byteLength} bytes`);
      count++;
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  return count / ((performance.now() - startedAt) / 1000);
}

export async function run(): Promise<void> {
  const database = await createTestDatabase('sqlite');
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-media-'));
  const config = loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {});
  const gatehouse = await startGatehouse(config, { log: createLogger('silent') });
  const bare = Fastify();
  try {
    const { deps } = gatehouse;
    const org = await createOrg(deps, { name: 'Media Bench Org' });
    const cameras = Array.from({ length: CAMERAS }, (_, i) => ({ name: `Camera ${i + 1}`, location: 'Bench' }));
    const seeded = await seedSite(deps, org.orgUuid, { locations: [{ name: 'Bench', timeZone: 'UTC' }], cameras });
    const uuids = Object.values(seeded.cameras ?? {});
    const auth = { 'x-auth-apikey': org.apiKey, 'x-auth-scheme': 'api-token' };
    const media = gatehouse.urls.media;
    const startSec = Math.floor(Date.now() / 1000) - 3 * 3600;

    // Cold encodes: the media host's encoder, each of a different instant (nothing cached).
    await deps.mediaHost.encode({ cameraName: 'Warm-up', atMs: startSec * 1000 - 60_000, boxes: [] });
    const encodeMs: number[] = [];
    for (let i = 0; i < ENCODES; i++) {
      const t0 = performance.now();
      await deps.mediaHost.encode({ cameraName: 'Camera 1', atMs: (startSec - 600 - i * SEGMENT_S) * 1000, boxes: [] });
      encodeMs.push(performance.now() - t0);
    }
    const encodeRatio = median(encodeMs) / (SEGMENT_S * 1000);
    console.log(`cold 2 s 720p segment encodes (ms): ${encodeMs.map((ms) => ms.toFixed(0)).join(', ')}`);
    record(
      'cold 2 s 720p segment: encode time / duration',
      `${encodeRatio.toFixed(2)} (${median(encodeMs).toFixed(0)} ms)`,
      `<= ${TARGETS.encode}`,
      encodeRatio <= TARGETS.encode,
    );

    // A cached segment against a static file route serving the same bytes.
    const segmentUrl = `${media}/dash/${uuids[0]}/${startSec}/10/vod/seg_1.m4v`;
    const first = await fetch(segmentUrl, { headers: auth });
    if (first.status !== 200) throw new Error(`${segmentUrl}: ${first.status} ${await first.text()}`);
    const bytes = Buffer.from(await first.arrayBuffer());
    const file = join(dataDir, 'segment.m4v');
    writeFileSync(file, bytes);
    bare.get('/seg_1.m4v', async (_request, reply) => reply.header('content-type', 'video/iso.segment').send(readFileSync(file)));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/seg_1.m4v`;
    const bareRounds: number[] = [];
    const servedRounds: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRounds.push(await throughput(bareUrl, {}, bytes.length));
      servedRounds.push(await throughput(segmentUrl, auth, bytes.length));
    }
    const ratio = median(servedRounds) / median(bareRounds);
    console.log(
      `cached segment (${bytes.length} bytes), req/s: static ${bareRounds.map((r) => r.toFixed(0)).join(', ')}; media host ${servedRounds.map((r) => r.toFixed(0)).join(', ')}`,
    );
    record(
      'cached segment / static file route',
      `${ratio.toFixed(2)} (${median(servedRounds).toFixed(0)} vs ${median(bareRounds).toFixed(0)} req/s)`,
      `>= ${TARGETS.served}`,
      ratio >= TARGETS.served,
    );

    // Many clients over many cameras' windows: every segment encoded once.
    const windowStart = startSec - 7200;
    const before = deps.mediaHost.segments.stats();
    let busy = 0;
    const get = async (url: string): Promise<void> => {
      for (;;) {
        const r = await fetch(url, { headers: auth });
        await r.arrayBuffer();
        if (r.status === 200) return;
        if (r.status !== 503) throw new Error(`${url}: ${r.status}`);
        busy++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const client = async (c: number) => {
      for (let k = 0; k < CAMERAS; k++) {
        const dir = `${media}/dash/${uuids[(c + k) % CAMERAS]}/${windowStart}/${WINDOW_S}/vod`;
        await get(`${dir}/file.mpd`);
        await get(`${dir}/seg_init.mp4`);
        for (let n = 1; n <= WINDOW_S / SEGMENT_S; n++) await get(`${dir}/seg_${n}.m4v`);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const seconds = (performance.now() - t0) / 1000;
    const after = deps.mediaHost.segments.stats();
    const distinct = (CAMERAS * WINDOW_S) / SEGMENT_S;
    const encodes = after.encodes - before.encodes;
    console.log(
      `${CLIENTS} clients x ${CAMERAS} cameras x ${WINDOW_S} s: ${seconds.toFixed(1)} s, ${encodes} encodes of ${distinct} segments, ` +
        `${after.hits - before.hits} cache hits, ${busy} answers 503 (retried); cache ${(after.bytes / 1e6).toFixed(1)} of ${(deps.mediaHost.segments.maxBytes / 1e6).toFixed(0)} MB`,
    );
    record(
      `${CAMERAS} cameras x ${WINDOW_S} s by ${CLIENTS} clients: encodes / segments`,
      `${encodes} / ${distinct}, at most ${after.maxConcurrentSameKey} at once`,
      'each once',
      encodes === distinct && after.maxConcurrentSameKey === 1,
    );
    record(
      'segment cache within its bound',
      `${(after.bytes / 1e6).toFixed(1)} MB of ${(deps.mediaHost.segments.maxBytes / 1e6).toFixed(0)} MB`,
      '<= bound',
      after.bytes <= deps.mediaHost.segments.maxBytes,
    );
  } finally {
    await bare.close();
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
