// `npm run bench`: runs every bench/*.bench.ts in turn (or those named: npm run bench -- rest-auth workload),
// then prints one summary table of every target with its figure and PASS or FAIL. Each bench measures its
// subject beside a baseline in the same run, in alternating rounds, and reports the ratio, because these
// machines are shared and noisy and only same-run ratios carry over. The load average is printed with it.
// Each bench runs in a process of its own (this file again, forked), so that none inherits another's heap,
// compiled code or open handles, and each can be run alone with the same figures.
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { addResults, anyFailed, loadAverage, recorded, recordFailure, startBench, summaryTable, type TargetResult } from './lib/results.js';

const here = dirname(fileURLToPath(import.meta.url));
const benchName = (file: string) => file.replace('.bench.ts', '');

/** In a bench's child process: runs that bench and hands what it recorded to the parent. */
const only = process.env.GH_BENCH_ONLY;
if (only) {
  startBench(benchName(only));
  try {
    const mod = (await import(pathToFileURL(join(here, only)).href)) as { run(): Promise<void> };
    await mod.run();
  } catch (e) {
    console.error(`${only} failed:`, e);
    recordFailure(benchName(only), e);
  }
  process.send!([...recorded()], () => process.exit(0));
  await new Promise(() => {}); // exits once the parent has the results
}

/** Runs one bench file in a child process; resolves what it recorded. */
function runInChild(file: string): Promise<TargetResult[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, GH_BENCH_ONLY: file } });
    let results: TargetResult[] | null = null;
    child.on('message', (m) => (results = m as TargetResult[]));
    child.on('exit', (code, signal) => (results ? resolve(results) : reject(new Error(`the bench process ended (${signal ?? code}) without results`))));
  });
}
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (benches.length === 0) {
  console.error(
    `no bench named ${wanted.join(', ')}; there are: ${readdirSync(here)
      .filter((f) => f.endsWith('.bench.ts'))
      .join(', ')}`,
  );
  process.exit(2);
}
const startedAt = performance.now();
const loadBefore = loadAverage();
console.log(`${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadBefore}, Node.js ${process.version}`);
for (const file of benches) {
  const name = benchName(file);
  console.log(`\n== ${name} == (load average ${loadAverage()})`);
  try {
    addResults(await runInChild(file));
  } catch (e) {
    console.error(`${name} failed:`, e);
    recordFailure(name, e);
  }
}
console.log(
  `\n== summary == (${((performance.now() - startedAt) / 1000).toFixed(0)} s; load average ${loadBefore} at the start, ${loadAverage()} at the end)\n`,
);
console.log(summaryTable());
process.exit(anyFailed() ? 1 : 0);
