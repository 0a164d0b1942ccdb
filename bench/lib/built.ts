import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// The benches measure the server as it ships: the build in dist/ (`npm run bench` builds first, and only when a
// source changed), not the sources through tsx, whose transpiled output differs (it names every function at
// run time, for one). BENCH_DIST names another build (a directory) to measure instead: an older commit's, for
// alternating before/after runs. Its checkout's node_modules must be this one's (a symlink): the workload's floor
// hears the statements of this checkout's database drivers.
const dist = process.env.BENCH_DIST ? pathToFileURL(resolve(process.env.BENCH_DIST) + '/') : new URL('../../dist/', import.meta.url);

/** A module of the build, typed by its source: `await built<typeof import('../../src/app.js')>('app.js')`. */
export function built<M>(path: string): Promise<M> {
  return import(new URL(path, dist).href) as Promise<M>;
}
