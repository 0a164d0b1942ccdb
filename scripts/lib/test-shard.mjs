// One process of scripts/run-tests.mjs: imports the compiled test files named, in order, so that their suites run
// one after another in this process (node:test runs a process's top-level suites in turn). Each file's suites
// hold their own hooks (the suite has no top-level before/after), so a file sees what it would alone, but the app
// and its dependencies load once for the shard instead of once per file.
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(file).href);
