#!/usr/bin/env node
// Runs every test file (test/**/*.test.ts) with Node's test runner through tsx.
// Node 20's runner takes no globs, so the files are listed here. Extra arguments narrow the run:
//   node scripts/run-tests.mjs test/e2e/orgs     (a folder or file prefix)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}
const filters = process.argv.slice(2);
const files = find(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((p) => f.startsWith(p)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.GATEHOUSE_TEST_CONCURRENCY ?? '3';
const child = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
