// Time from `npm start` to a healthy server (GET /healthz answers 200) when nothing changed since the last
// build, beside a baseline in the same run: `npm exec` of a bare Fastify server that answers /healthz, which is
// what npm and Node.js alone cost to start a server. The first start of each round also seeds the demo
// organization into a fresh data dir; the second start reuses it. Target: under 3 s for a start with an
// existing data dir.
//   BENCH_START_ROUNDS (3)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './lib/results.js';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const TIMEOUT_MS = 60_000;
const root = fileURLToPath(new URL('..', import.meta.url));

/** Spawns a command, waits for a REST URL on its output, then polls /healthz; resolves the seconds it took. */
function timeToHealthy(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  return new Promise<number>((resolve, reject) => {
    const deadline = setTimeout(() => finish(new Error(`${command} ${args.join(' ')}: not healthy within ${TIMEOUT_MS} ms\n${output}`)), TIMEOUT_MS);
    const finish = (error: Error | null, seconds?: number) => {
      clearTimeout(deadline);
      child.stdout.removeAllListeners();
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      if (error) reject(error);
      else resolve(seconds!);
    };
    const poll = async (url: string) => {
      while (performance.now() - startedAt < TIMEOUT_MS) {
        const healthy = await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (healthy) return finish(null, (performance.now() - startedAt) / 1000);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    let polling = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /REST:\s+(http\S+)/.exec(output)?.[1];
      if (url && !polling) {
        polling = true;
        void poll(url);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => finish(new Error(`${command} exited with ${code}\n${output}`)));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gh-bench-start-'));
  const bare = join(work, 'bare.mjs');
  writeFileSync(
    bare,
    `import Fastify from ${JSON.stringify(join(root, 'node_modules', 'fastify', 'fastify.js'))};
const app = Fastify(); app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('  REST:      http://127.0.0.1:' + app.server.address().port);`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const ports = { GATEHOUSE_HTTP_PORT: '0', GATEHOUSE_MEDIA_PORT: '0', GATEHOUSE_WS_PORT: '0' };
  try {
    // One `npm start` first, so that the build is current (what the target is about).
    await timeToHealthy(npm, ['start'], { ...ports, GATEHOUSE_DATA_DIR: join(work, 'warm'), GATEHOUSE_NO_SEED: '1' });
    const baseline: number[] = [];
    const first: number[] = [];
    const again: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await timeToHealthy(npm, ['exec', '--', 'node', bare], {}));
      const dataDir = join(work, `round-${round}`);
      first.push(await timeToHealthy(npm, ['start'], { ...ports, GATEHOUSE_DATA_DIR: dataDir }));
      again.push(await timeToHealthy(npm, ['start'], { ...ports, GATEHOUSE_DATA_DIR: dataDir }));
    }
    const fmt = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    console.log(`rounds (s): bare ${fmt(baseline)}; first start ${fmt(first)}; start again ${fmt(again)}`);
    console.log(`npm exec of a bare Fastify server: ${median(baseline).toFixed(2)} s`);
    console.log(`npm start, new data dir (seeds):   ${median(first).toFixed(2)} s`);
    const subject = median(again);
    console.log(`npm start, existing data dir:      ${subject.toFixed(2)} s (${(subject / median(baseline)).toFixed(1)}x the bare start)`);
    record('npm start to healthy, existing data dir', `${subject.toFixed(2)} s (bare npm exec ${median(baseline).toFixed(2)} s)`, '< 3 s', subject < 3);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
