#!/usr/bin/env node
// `npm run build` (--force) and `npm start` run this: it compiles with tsc only when a source or build setting is newer than the last
// build, so an unchanged checkout starts in about a second instead of waiting for a full compile. The browser console (console/,
// Preact bundled by Vite into dist/console-app/) is built the same way, on its own stamp: a server change does not rebuild it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/** The newest modification time under a file or folder. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

const force = process.argv[2] === '--force';
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...inputs.map((p) => newest(join(root, p))));

const consoleStamp = join(root, 'dist', 'console-app', '.build-stamp');
const consoleInputs = ['console', 'package.json', 'package-lock.json'];
const consoleBuiltAt = existsSync(consoleStamp) ? statSync(consoleStamp).mtimeMs : 0;
if (force || consoleBuiltAt <= Math.max(...consoleInputs.map((p) => newest(join(root, p))))) {
  const startedAt = Date.now();
  const node = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;
  // Type-checked (Vite only strips the types), then bundled.
  const failed =
    node([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join('console', 'tsconfig.json')]) ||
    node([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join('console', 'vite.config.mjs')]);
  if (failed) process.exit(failed);
  writeFileSync(consoleStamp, '');
  utimesSync(consoleStamp, startedAt / 1000, startedAt / 1000);
}

if (builtAt > changedAt && !force) process.exit(0);

const startedAt = Date.now();
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// The simulator's events, for `gatehouse simulate` to read without loading the routes (src/cli/simulate-catalogue.ts).
const catalogue = spawnSync(
  process.execPath,
  ['--input-type=module', '-e', "await (await import('./dist/cli/simulate-catalogue.js')).writeSimulateCatalogue()"],
  { cwd: root, stdio: 'inherit' },
);
if (catalogue.status !== 0) process.exit(catalogue.status ?? 1);
// Stamped with the time the compile started, so an edit made during the compile still counts as newer.
writeFileSync(stamp, '');
utimesSync(stamp, startedAt / 1000, startedAt / 1000);
