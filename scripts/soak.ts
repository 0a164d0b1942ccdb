// `npm run soak [-- --minutes N]`: holds connect/disconnect and write load on a server (the build, in a process of
// its own) for a bounded time (default 10 minutes), then compares the server's resident memory and open file
// descriptors at the start (after a warm-up minute's share) and at the end, and fails past the bounds below.
// Loopback only; every loop stops at the deadline.
//   The load: STREAM_CHURN stream connections, each opening, subscribing, staying 0.5 to 2 s and closing, over
//   and over; WRITERS REST clients creating and updating schedules and unlocking nothing (writes announced on
//   the stream), and reading alert groups and the audit feed.
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const args = process.argv.slice(2);
const minutesFlag = args.indexOf('--minutes');
const MINUTES = minutesFlag >= 0 ? Number(args[minutesFlag + 1]) : 10;
if (!(MINUTES > 0 && MINUTES <= 120)) throw new Error('--minutes must be a number of minutes from 0 to 120');
const STREAM_CHURN = 50;
const WRITERS = 10;
/** Growth allowed from the start sample to the end one. */
const MAX_RSS_GROWTH_BYTES = 40 * 1024 * 1024;
const MAX_FD_GROWTH = 20;

const root = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sample(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { rss: rssKiB * 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
}
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const dataDir = mkdtempSync(join(tmpdir(), 'gh-soak-'));
const child = fork(join(root, 'scripts', 'soak-server.mjs'), [], {
  env: { ...process.env, SOAK_DATA_DIR: dataDir },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const server = await new Promise<{ urls: { rest: string; ws: string }; orgUuid: string; apiKey: string }>((resolve, reject) => {
  child.once('message', resolve as (m: unknown) => void);
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const deadline = Date.now() + MINUTES * 60_000;
const warmUntil = Date.now() + Math.min(60_000, MINUTES * 6_000);
let streamSessions = 0;
let restCalls = 0;
const problems: string[] = [];

async function call(path: string, body: object): Promise<Record<string, unknown>> {
  const answer = await fetch(server.urls.rest + path, {
    method: 'POST',
    headers: { 'x-auth-apikey': server.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  restCalls++;
  const json = (await answer.json()) as Record<string, unknown>;
  if (answer.status !== 200 || json.error) throw new Error(`${path}: ${answer.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

/** One stream client, over and over: connect, subscribe, read for a while, close (cleanly or not). */
async function churn(n: number): Promise<void> {
  while (Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${server.urls.ws}?x-auth-scheme=api-token`, ['v12.stomp'], {
        headers: { 'x-auth-apikey': server.apiKey },
        rejectUnauthorized: false,
      });
      const stay = 500 + Math.random() * 1500;
      ws.on('open', () => {
        ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
        ws.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${server.orgUuid}\n\n\0`);
        streamSessions++;
        setTimeout(() => (n % 2 === 0 ? ws.close() : ws.terminate()), stay);
      });
      ws.on('error', (e) => problems.length < 10 && problems.push(`stream: ${e.message}`));
      ws.on('close', () => resolve());
    });
  }
}

async function writer(n: number): Promise<void> {
  const { scheduleUuid } = await call('/api/policy/createSchedule', { schedule: { name: `Soak ${n}`, intervalList: [] } });
  for (let i = 0; Date.now() < deadline; i++) {
    try {
      await call('/api/policy/updateSchedule', { schedule: { uuid: scheduleUuid, name: `Soak ${n} ${i}` } });
      if (i % 10 === 0) await call('/api/policy/createSchedule', { schedule: { name: `Soak ${n} extra ${i}`, intervalList: [] } });
      await call('/api/report/getAuditFeed', { maxPageSize: 20 });
      await call('/api/org/getOrgV2', {});
    } catch (e) {
      if (problems.length < 10) problems.push((e as Error).message);
    }
    await sleep(20);
  }
}

console.log(`soak: ${MINUTES} min; ${STREAM_CHURN} stream connections churning, ${WRITERS} REST writers; server pid ${child.pid}`);
const load = Promise.all([...Array.from({ length: STREAM_CHURN }, (_, i) => churn(i)), ...Array.from({ length: WRITERS }, (_, i) => writer(i))]);
await sleep(warmUntil - Date.now());
const first = sample(child.pid!);
console.log(`start (after warm-up): RSS ${mib(first.rss)}, ${first.fds} open descriptors`);
const ticker = setInterval(() => {
  const now = sample(child.pid!);
  console.log(
    `  ${Math.round((deadline - Date.now()) / 1000)} s left: RSS ${mib(now.rss)}, ${now.fds} descriptors, ${streamSessions} stream sessions, ${restCalls} REST calls`,
  );
}, 60_000);
await load;
clearInterval(ticker);
// Closed connections settle (the server's close grace) before the last sample.
await sleep(6000);
const last = sample(child.pid!);
console.log(`end: RSS ${mib(last.rss)}, ${last.fds} open descriptors; ${streamSessions} stream sessions, ${restCalls} REST calls`);
const rssGrowth = last.rss - first.rss;
const fdGrowth = last.fds - first.fds;
child.disconnect();
await new Promise((resolve) => child.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });
const failures = [
  ...(rssGrowth > MAX_RSS_GROWTH_BYTES ? [`RSS grew ${mib(rssGrowth)}, more than ${mib(MAX_RSS_GROWTH_BYTES)}`] : []),
  ...(fdGrowth > MAX_FD_GROWTH ? [`open descriptors grew by ${fdGrowth}, more than ${MAX_FD_GROWTH}`] : []),
  ...problems.map((p) => `load: ${p}`),
];
console.log(`RSS growth ${mib(rssGrowth)} (bound ${mib(MAX_RSS_GROWTH_BYTES)}), descriptor growth ${fdGrowth} (bound ${MAX_FD_GROWTH})`);
if (failures.length > 0) {
  console.log(`FAIL\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('PASS');
