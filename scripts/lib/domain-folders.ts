import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './coverage.js';

/** The URL prefix -> domain folder table of CONTRIBUTING.md: the longest prefix that matches wins. */
export function domainFolderOf(path: string, contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')): string | null {
  const rows = [...contributing.matchAll(/^\| `(\/api\/[^`]*)` \| `src\/domains\/([a-z-]+)\/` \|/gm)];
  const match = rows.map(([, prefix, folder]) => ({ prefix, folder })).filter((r) => path.startsWith(r.prefix));
  match.sort((a, b) => b.prefix.length - a.prefix.length);
  return match[0]?.folder ?? null;
}
