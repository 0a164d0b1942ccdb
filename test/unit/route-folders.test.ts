import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/deps.js';
import { createLogger } from '../../src/logger.js';
import { closeDeps, openDeps } from '../../src/open-deps.js';
import { domainFolderOf, prefixTable } from '../../scripts/lib/domain-folders.js';
import { routeSources, type RouteSource } from '../helpers/route-sources.js';

describe('CONTRIBUTING.md maps each URL prefix to the folder its routes live in', () => {
  let deps: Deps;
  let dataDir: string;
  let sources: RouteSource[];
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gh-routes-'));
    deps = await openDeps(loadConfig({ dataDir, database: `sqlite:${join(dataDir, 'g.db')}`, bus: 'memory:', seed: false }, {}), {
      log: createLogger('silent'),
    });
    sources = await routeSources(deps);
  });
  after(async () => {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the route files of every operation', () => {
    assert.ok(sources.filter((s) => !s.alias).length > 500, `${sources.length} routes found`);
  });

  it('has each operation registered from a route file in the folder the table names for its path', () => {
    const table = prefixTable();
    const misplaced = sources
      .filter((s) => !s.alias)
      .map((s) => ({ ...s, expected: domainFolderOf(s.path, table) }))
      .filter((s) => s.expected === null || dirname(s.file) !== `src/domains/${s.expected}`)
      .map((s) => `${s.path}: ${s.file}, but the table says ${s.expected ? `src/domains/${s.expected}/` : 'nothing'}`);
    assert.deepEqual(misplaced, [], 'move the route, or add the prefix to the table in CONTRIBUTING.md');
  });

  it('names only folders that exist and hold routes', () => {
    const folders = new Set(sources.map((s) => dirname(s.file)));
    const unknown = prefixTable().filter((row) => !folders.has(`src/domains/${row.folder}`));
    assert.deepEqual(unknown, []);
  });
});
