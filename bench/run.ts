// `npm run bench`: runs every bench/*.bench.ts in turn (or those named: npm run bench -- rest-auth workload),
// then prints one summary table of every target with its figure and PASS or FAIL. Each bench measures its
// subject beside a baseline in the same run, in alternating rounds, and reports the ratio, because these
// machines are shared and noisy and only same-run ratios carry over. The load average is printed with it.
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { anyFailed, loadAverage, recordFailure, startBench, summaryTable } from './lib/results.js';

const here = dirname(fileURLToPath(import.meta.url));
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
  const name = file.replace('.bench.ts', '');
  console.log(`\n== ${name} == (load average ${loadAverage()})`);
  startBench(name);
  try {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { run(): Promise<void> };
    await mod.run();
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
