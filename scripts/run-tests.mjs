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

const concurrency = Math.max(1, Number(process.env.GATEHOUSE_TEST_CONCURRENCY ?? 3));
// Node.js 22 and later keep the modules' compiled code between the test processes (Node.js 20 ignores the variable):
// each process loads the whole app, and compiling it again cost a quarter of that.
const env = { NODE_COMPILE_CACHE: join(build, '.compile-cache'), ...process.env };
const compiledOf = (f) => join(build, f.replace(/\.ts$/, '.js'));

// The files run in shards: a process imports up to SHARD_SIZE files (scripts/lib/test-shard.mjs) and runs their
// suites one after another. A process per file loaded the app and started a test server from cold each time, about
// 2 s of CPU on Node.js 20, which was over half of CI's CPU (docs/performance.md, "The test suite's time").
// GATEHOUSE_TEST_SHARD_SIZE=1 runs each file in a process of its own, as `node --test` does.
const SHARD_SIZE = Math.max(1, Number(process.env.GATEHOUSE_TEST_SHARD_SIZE ?? 8));
const shardScript = join(root, 'scripts', 'lib', 'test-shard.mjs');
const timesReporter = join(root, 'scripts', 'lib', 'file-times-reporter.mjs');
const timesDir = join(build, 'times');

// The files that took longest in CI (the slowest suites a run ends with), each a shard of its own that starts first,
// so that no shard of eight ends the run long after the others.
const SOLO_FILES = new Set([
  'test/e2e/hardening/fuzz.test.ts',
  'test/e2e/hardening/foreign-id-probe.test.ts',
  'test/e2e/hardening/big-site.test.ts',
  'test/e2e/cli/cli-commands.test.ts',
  'test/e2e/console/console-browser.test.ts',
]);

/**
 * The shards, the costliest first so that the last ones to finish are short: the solo files, then the others in
 * path order (a folder's files share what they load), cut into runs of SHARD_SIZE and costed by their files' size.
 */
function shardsOf(testFiles) {
  const solo = testFiles.filter((f) => SOLO_FILES.has(f)).map((f) => ({ files: [f], cost: Infinity }));
  const rest = testFiles.filter((f) => !SOLO_FILES.has(f));
  const shards = [];
  for (let i = 0; i < rest.length; i += SHARD_SIZE) {
    const shardFiles = rest.slice(i, i + SHARD_SIZE);
    shards.push({ files: shardFiles, cost: shardFiles.reduce((sum, f) => sum + statSync(join(root, f)).size, 0) });
  }
  return [...solo, ...shards.sort((a, b) => b.cost - a.cost)];
}

const SUMMARY_LINE = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;

/**
 * Runs one process of test files: a shard (their suites in turn, in this process) or, with `isolated`, Node's
 * runner with a process per file. Answers its exit code, its report without the count lines (which the run adds
 * up), those counts, its wall time and its top-level tests' times.
 */
function runProcess(testFiles, index, { isolated = false } = {}) {
  const timesFile = join(timesDir, `${index}.jsonl`);
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${timesReporter}`,
    `--test-reporter-destination=${timesFile}`,
  ];
  const args = isolated
    ? ['--enable-source-maps', '--test', '--test-concurrency=1', ...reporters, ...testFiles.map(compiledOf)]
    : ['--enable-source-maps', ...reporters, shardScript, ...testFiles.map(compiledOf)];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const counts = {};
      const report = Buffer.concat(output)
        .toString()
        .split('\n')
        .filter((line) => {
          const m = SUMMARY_LINE.exec(line);
          if (m) counts[m[1]] = Number(m[2]);
          return !m;
        })
        .join('\n');
      const times = existsSync(timesFile)
        ? readFileSync(timesFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [];
      resolve({ files: testFiles, code: code ?? (signal ? 1 : 0), report, counts, ms: Date.now() - started, times });
    });
  });
}

/** Runs the shards, `concurrency` at a time, each one's report printed whole as it ends; answers their results. */
async function runShards(shards) {
  rmSync(timesDir, { recursive: true, force: true });
  mkdirSync(timesDir, { recursive: true });
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < shards.length) {
      const index = next++;
      const result = await runProcess(shards[index].files, index);
      process.stdout.write(`\n---- ${result.files.join(', ')} (${(result.ms / 1000).toFixed(1)} s${result.code === 0 ? '' : ', failed'}) ----\n`);
      process.stdout.write(result.report.endsWith('\n') ? result.report : `${result.report}\n`);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, shards.length) }, worker));
  return results;
}

/** The counts of the runs added up, in the runner's own format (what CI's summary reads). */
function printCounts(results) {
  const total = {};
  for (const { counts } of results) for (const [name, n] of Object.entries(counts)) total[name] = (total[name] ?? 0) + n;
  for (const name of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) console.log(`ℹ ${name} ${total[name] ?? 0}`);
}

/** The test files named by a report's list of failing tests, or null when a failure names no test file. */
function failingFiles(report, among) {
  const at = report.lastIndexOf('failing tests:');
  if (at < 0) return null;
  const locations = [...report.slice(at).matchAll(/^\s*test at (.+?):\d+:\d+$/gm)].map((m) => m[1]);
  const named = locations.map((location) => among.find((f) => location.endsWith(f) || location.endsWith(f.replace(/\.ts$/, '.js'))));
  return named.length === 0 || named.includes(undefined) ? null : [...new Set(named)];
}

/** The slowest processes and top-level suites of the run (where finding time goes: CI's limit is 30 minutes). */
function printSlowest(results) {
  const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
  const sum = results.reduce((total, r) => total + r.ms, 0);
  console.log(`\n---- the slowest of ${results.length} test processes (${concurrency} at a time; ${seconds(sum).trim()} s in all) ----`);
  for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`${seconds(r.ms)} s  ${r.files.join(' ')}`);
  const suites = results.flatMap((r) => r.times).sort((a, b) => b.ms - a.ms);
  console.log(`\n---- the slowest of ${suites.length} top-level suites ----`);
  for (const t of suites.slice(0, 20)) console.log(`${seconds(t.ms)} s  ${t.name}${t.ok ? '' : '  (failed)'}`);
}

// A process that fails in the full run, where two suites share two cores, has its failing files (else all of its
// files) run again once, each in a process of its own: the run passes only if they pass then, and names them as
// FLAKY at the end, to be fixed. A run with many failing files is not retried.
const MAX_RETRIED_FILES = 10;
const results = await runShards(shardsOf(files));
printSlowest(results);
printCounts(results);
const failed = results.filter((r) => r.code !== 0);
let code = failed.length === 0 ? 0 : 1;
if (failed.length > 0) {
  const again = failed.flatMap((r) => failingFiles(r.report, r.files) ?? r.files);
  console.log(`\n---- failed: ${failed.flatMap((r) => r.files).join(', ')} ----`);
  for (const r of failed) {
    const at = r.report.lastIndexOf('failing tests:');
    if (at >= 0) console.log(r.report.slice(at));
  }
  if (again.length <= MAX_RETRIED_FILES) {
    console.log(`\n---- run again, each file in a process of its own, once: ${again.join(', ')} ----`);
    const retry = await runProcess(again, 'retry', { isolated: true });
    console.log(retry.report);
    printCounts([retry]);
    code = retry.code;
    console.log(code === 0 ? `\nFLAKY (failed in the full run, passed alone; fix it): ${again.join(', ')}` : `\nFAILED again alone: ${again.join(', ')}`);
  }
}
process.exit(code);
