#!/usr/bin/env node
// Runs every test file (test/**/*.test.ts) with Node's test runner. The sources and tests are compiled once with
// tsc into .gatehouse/test-build/ (which also type-checks them), and the compiled files run: loading the app
// through a TypeScript loader in each of a hundred-odd test processes cost about 2 s of CPU apiece.
// Node 20's runner takes no globs, so the files are listed here. Extra arguments narrow the run:
//   node scripts/run-tests.mjs test/e2e/orgs     (a folder or file prefix)
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const build = join(root, '.gatehouse', 'test-build');

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}
// --build-only compiles (as below) and stops: CI compiles once and hands the output to its second tree.
const buildOnly = process.argv[2] === '--build-only';
const filters = process.argv.slice(buildOnly ? 3 : 2);
// GATEHOUSE_TEST_PER_DIALECT_ONLY=1 keeps the files that run once per store dialect (forEachDialect, DIALECTS):
// CI's second suite runs those on PostgreSQL, and the rest (unit, CLI, browser; the same on every release) once.
const perDialectOnly = process.env.GATEHOUSE_TEST_PER_DIALECT_ONLY === '1';
const perDialect = (f) => /\b(forEachDialect|DIALECTS)\b/.test(readFileSync(join(root, f), 'utf8'));
const files = find(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((p) => f.startsWith(p)))
  .filter((f) => !perDialectOnly || perDialect(f))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// The CLI tests run the package bin (bin/gatehouse.js -> dist/), as `npx gatehouse` does: built when stale.
run([join(root, 'scripts', 'build-if-stale.mjs')]);
// Everything tsconfig.json covers, compiled (incrementally) beside the repository's layout.
run([
  join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
  '-p',
  'tsconfig.json',
  '--outDir',
  build,
  '--incremental',
  '--tsBuildInfoFile',
  join(build, '.tsbuildinfo'),
]);
// What the compiled modules reach by relative path: package.json (its version, and "type": "module") and the examples.
copyFileSync(join(root, 'package.json'), join(build, 'package.json'));
if (!existsSync(join(build, 'examples'))) symlinkSync(join(root, 'examples'), join(build, 'examples'), 'dir');
mkdirSync(join(build, 'test'), { recursive: true });
if (buildOnly) process.exit(0);

const concurrency = process.env.GATEHOUSE_TEST_CONCURRENCY ?? '3';
// Node.js 22 and later keep the modules' compiled code between the test processes (Node.js 20 ignores the variable):
// each process loads the whole app, and compiling it again cost a quarter of that.
const env = { NODE_COMPILE_CACHE: join(build, '.compile-cache'), ...process.env };
const compiledOf = (f) => join(build, f.replace(/\.ts$/, '.js'));

// Each file's time (scripts/lib/file-times-reporter.mjs), as JSON lines, for the list of the slowest at the end.
const timesFile = join(build, 'file-times.jsonl');

/** Runs test files with Node's runner, its report passed through; answers the exit code and the report. */
function runFiles(testFiles, testConcurrency) {
  rmSync(timesFile, { force: true });
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--enable-source-maps',
        '--test',
        `--test-concurrency=${testConcurrency}`,
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${join(root, 'scripts', 'lib', 'file-times-reporter.mjs')}`,
        `--test-reporter-destination=${timesFile}`,
        ...testFiles.map(compiledOf),
      ],
      { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], env },
    );
    const report = [];
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      report.push(chunk);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), report: Buffer.concat(report).toString() }));
  });
}

/** The test files named by the report's list of failing tests, or null when a failure names no test file. */
function failingFiles(report) {
  const listed = report.slice(report.lastIndexOf('failing tests:'));
  const locations = [...listed.matchAll(/^test at (.+?):\d+:\d+$/gm)].map((m) => m[1]);
  const named = locations.map((location) => files.find((f) => location.endsWith(f) || location.endsWith(f.replace(/\.ts$/, '.js'))));
  return named.length === 0 || named.includes(undefined) ? null : [...new Set(named)];
}

/** The slowest files of the run just made, and the sum of every file's time (where finding time goes: CI's limit is 30 minutes). */
function printSlowest(count = 25) {
  if (!existsSync(timesFile)) return;
  const times = readFileSync(timesFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.ms - a.ms);
  if (times.length < 2) return;
  const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
  const sum = times.reduce((total, t) => total + t.ms, 0);
  console.log(
    `\n---- the ${Math.min(count, times.length)} slowest of ${times.length} test files (each file's process, ${concurrency} at a time; ${seconds(sum).trim()} s in all) ----`,
  );
  for (const t of times.slice(0, count)) console.log(`${seconds(t.ms)} s  ${relative(build, t.file).replace(/\.js$/, '.ts')}${t.ok ? '' : '  (failed)'}`);
}

// A file that fails in the full run, where two suites share two cores, is run again once, alone: the run passes
// only if it passes then, and names it as FLAKY at the end, to be fixed. Many failing files are not retried.
const MAX_RETRIED_FILES = 3;
const first = await runFiles(files, concurrency);
printSlowest();
let code = first.code;
if (code !== 0) {
  const failed = failingFiles(first.report);
  if (failed && failed.length <= MAX_RETRIED_FILES) {
    console.log(`\n---- run again alone, once: ${failed.join(', ')} ----`);
    code = (await runFiles(failed, 1)).code;
    console.log(code === 0 ? `\nFLAKY (failed in the full run, passed alone; fix it): ${failed.join(', ')}` : `\nFAILED again alone: ${failed.join(', ')}`);
  }
}
process.exit(code);
