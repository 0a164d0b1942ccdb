import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest folder above this file that holds package-lock.json. Tests and scripts
 * reach the repository's files (docs, fixtures, examples, sources) through it, because they also run compiled,
 * from .gatehouse/test-build/ (scripts/run-tests.mjs), where paths relative to the module would miss them.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package-lock.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package-lock.json above scripts/lib/repo-root');
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRoot();
