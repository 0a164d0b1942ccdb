import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './coverage.js';

/** The URL prefix -> folder table of CONTRIBUTING.md (`| \`/api/...\` | \`src/domains/<folder>/\` |`), in its order. */
export function prefixTable(contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')): Array<{ prefix: string; folder: string }> {
  return [...contributing.matchAll(/^\| `(\/api\/[^`]*)` \| `src\/domains\/([a-z/-]+)\/` \|/gm)].map(([, prefix, folder]) => ({ prefix, folder }));
}

/** The domain folder (under src/domains, e.g. `events/vehicles`) the table names for a path: the longest matching prefix wins. */
export function domainFolderOf(path: string, table = prefixTable()): string | null {
  const matches = table.filter((row) => path.startsWith(row.prefix)).sort((a, b) => b.prefix.length - a.prefix.length);
  return matches[0]?.folder ?? null;
}
