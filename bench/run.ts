// `npm run bench`: runs every bench/*.bench.ts in turn (or those named: npm run bench -- rest-auth).
// Each bench measures its subject beside a baseline in the same run and prints the ratio,
// because these machines are noisy and only ratios carry over.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
for (const file of benches) {
  console.log(`\n== ${file.replace('.bench.ts', '')} ==`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run(): Promise<void> };
  await mod.run();
}
