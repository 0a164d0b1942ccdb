/**
 * The coverage page (docs/coverage.md) and the other generated parts of the docs: Gatehouse's operations (from its
 * own /openapi.json) against the platform's catalogue, family by family; the stream's entity list in
 * docs/streaming.md (from src/bus/entities.ts); the total in README.md. `npm run coverage` writes them; a test
 * checks that they are fresh.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDeps, openDeps } from '../../src/open-deps.js';
import { loadConfig } from '../../src/config.js';
import { buildHttpApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { REPO_ROOT } from './repo-root.js';

export const root = REPO_ROOT;
export const NAMES_FILE = join(root, 'scripts/catalogue-operations.txt');
export const DEFAULT_CATALOGUE = join(root, '../shared/reference/platform-openapi.json');

export interface CatalogueOperation {
  path: string;
  operationId: string;
}

interface OpenApiOperation {
  operationId?: string;
  description?: string;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** The catalogue's operations, names only, from the catalogue itself. */
export function namesFromCatalogue(file: string): CatalogueOperation[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDoc;
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.values(methods).map((op) => ({ path, operationId: String(op.operationId) })))
    .sort((a, b) => a.path.localeCompare(b.path));
}

export const renderNames = (ops: CatalogueOperation[]): string =>
  "# The platform catalogue's operations, names only (path and operationId): written by `npm run coverage`.\n" +
  ops.map((o) => `${o.path} ${o.operationId}\n`).join('');

/** The names-only list kept in the repository, so that the checks run without the catalogue. */
export function readNames(): CatalogueOperation[] {
  return readFileSync(NAMES_FILE, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [path, operationId] = line.split(' ');
      return { path, operationId };
    });
}

/** Gatehouse's /openapi.json, from an app built on a throw-away SQLite store (nothing listens). */
export async function gatehouseOpenApi(): Promise<OpenApiDoc> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-coverage-'));
  const config = loadConfig({ dataDir, database: `sqlite:${join(dataDir, 'gatehouse.db')}`, bus: 'memory:', seed: false }, {});
  const deps = await openDeps(config, { log: createLogger('silent') });
  try {
    const app = await buildHttpApp(deps);
    await app.ready();
    const doc = app.swagger() as unknown as OpenApiDoc;
    await app.close();
    return doc;
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One operation of Gatehouse: its path, its aliases (the paths whose description says "Alias of" it) and id. */
interface GatehouseOperation {
  path: string;
  operationId: string;
  paths: string[];
}

function gatehouseOperations(doc: OpenApiDoc): GatehouseOperation[] {
  const byPath = new Map<string, GatehouseOperation>();
  const aliases: Array<[string, string]> = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const op of Object.values(methods)) {
      const aliasOf = /^Alias of (\S+?),/.exec(op.description ?? '')?.[1];
      if (aliasOf) aliases.push([path, aliasOf]);
      else byPath.set(path, { path, operationId: String(op.operationId), paths: [path] });
    }
  }
  for (const [alias, primary] of aliases) byPath.get(primary)?.paths.push(alias);
  return [...byPath.values()];
}

const familyOf = (path: string) => path.split('/')[2] ?? path;

/** Catalogue paths that Gatehouse answers under another operationId than the catalogue's. */
export function operationIdMismatches(doc: OpenApiDoc, catalogue: CatalogueOperation[]): string[] {
  const expected = new Map(catalogue.map((o) => [o.path, o.operationId]));
  const problems: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const op of Object.values(methods)) {
      const want = expected.get(path);
      if (want !== undefined && op.operationId !== want) problems.push(`${path}: operationId ${op.operationId}, the catalogue's is ${want}`);
    }
  }
  return problems;
}

export interface Coverage {
  implemented: number;
  total: number;
  /** Operations of the platform's newer public spec (not in the catalogue) that Gatehouse answers. */
  newer: number;
  /** Operations of the platform's older API (not in the catalogue) that its examples still call. */
  older: number;
  own: number;
  /** Each family of the catalogue: the operations Gatehouse answers of its total. */
  families: Array<{ family: string; implemented: number; of: number }>;
  markdown: string;
}

/**
 * The paths of the platform's newer public spec that Gatehouse answers: platform operations the catalogue does
 * not list (the OpenAPI test reads the same list to tell them from Gatehouse's own).
 */
export const NEWER_PATHS_FILE = join(root, 'test/fixtures/platform-paths-newer.json');
export const readNewerPaths = (): string[] => JSON.parse(readFileSync(NEWER_PATHS_FILE, 'utf8')) as string[];
/** The paths of the platform's older API that its examples call and Gatehouse answers (marked `x-platform-source: older-api`). */
export const OLDER_PATHS_FILE = join(root, 'test/fixtures/platform-paths-older.json');
export const readOlderPaths = (): string[] => JSON.parse(readFileSync(OLDER_PATHS_FILE, 'utf8')) as string[];

/** docs/coverage.md. */
export function renderCoverage(
  doc: OpenApiDoc,
  catalogue: CatalogueOperation[],
  newerPaths: readonly string[] = readNewerPaths(),
  olderPaths: readonly string[] = readOlderPaths(),
): Coverage {
  const answered = new Set(Object.keys(doc.paths));
  const families = new Map<string, { done: CatalogueOperation[]; todo: CatalogueOperation[] }>();
  for (const op of catalogue) {
    const family = families.get(familyOf(op.path)) ?? { done: [], todo: [] };
    (answered.has(op.path) ? family.done : family.todo).push(op);
    families.set(familyOf(op.path), family);
  }
  const inCatalogue = new Set(catalogue.map((o) => o.path));
  const newerSet = new Set(newerPaths);
  const beyond = gatehouseOperations(doc)
    .filter((op) => !op.paths.some((p) => inCatalogue.has(p)))
    .sort((a, b) => a.path.localeCompare(b.path));
  const olderSet = new Set(olderPaths);
  const newer = beyond.filter((op) => op.paths.some((p) => newerSet.has(p)));
  const older = beyond.filter((op) => !op.paths.some((p) => newerSet.has(p)) && op.paths.some((p) => olderSet.has(p)));
  const own = beyond.filter((op) => !op.paths.some((p) => newerSet.has(p) || olderSet.has(p)));
  const implemented = [...families.values()].reduce((n, f) => n + f.done.length, 0);
  const total = catalogue.length;
  const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
  const names = [...families.keys()].sort((a, b) => a.localeCompare(b));
  const lines = [
    '# Coverage of the platform catalogue',
    '',
    "Generated by `npm run coverage` from Gatehouse's `/openapi.json` and the platform's catalogue",
    '(`scripts/catalogue-operations.txt`, its names only); do not edit by hand. An operation counts when Gatehouse',
    "answers its catalogue path (as the operation's path or as an alias).",
    '',
    `**Total: ${implemented} of ${total} catalogue operations (${percent(implemented, total)})**, ${newer.length} of the platform's newer public spec, ${older.length} of its older API, and ${own.length} of Gatehouse's own.`,
    '',
    '| Family | Implemented | Of | |',
    '|---|--:|--:|--:|',
    ...names.map((name) => {
      const f = families.get(name)!;
      const of = f.done.length + f.todo.length;
      return `| [${name}](#${name.toLowerCase()}) | ${f.done.length} | ${of} | ${percent(f.done.length, of)} |`;
    }),
    `| **Total** | **${implemented}** | **${total}** | **${percent(implemented, total)}** |`,
    '',
  ];
  for (const name of names) {
    const f = families.get(name)!;
    lines.push(`## ${name}`, '', `${f.done.length} of ${f.done.length + f.todo.length}.`, '');
    for (const op of f.done) lines.push(`- [x] \`${op.path}\``);
    if (f.todo.length > 0) {
      if (f.done.length > 0) lines.push('');
      lines.push(`<details><summary>Not yet (${f.todo.length})</summary>`, '');
      for (const op of f.todo) lines.push(`- [ ] \`${op.path}\``);
      lines.push('', '</details>');
    }
    lines.push('');
  }
  lines.push(
    "## The platform's newer public spec",
    '',
    "Platform operations the catalogue does not list, from the platform's newer public spec (`test/fixtures/platform-paths-newer.json`).",
    '',
  );
  for (const op of newer) lines.push(`- \`${op.path}\` (${op.operationId})`);
  lines.push('');
  lines.push(
    "### The platform's older API",
    '',
    "Operations of the platform's older API, which its examples still call (`test/fixtures/platform-paths-older.json`).",
    '',
  );
  for (const op of older) lines.push(`- \`${op.path}\` (${op.operationId})`);
  lines.push('');
  lines.push("## Gatehouse's own", '', "Operations none of whose paths is the platform's (the spec's own, tools, control of simulated devices).", '');
  for (const op of own) lines.push(`- \`${op.path}\` (${op.operationId})`);
  lines.push('');
  const byFamily = names.map((family) => {
    const f = families.get(family)!;
    return { family, implemented: f.done.length, of: f.done.length + f.todo.length };
  });
  return { implemented, total, newer: newer.length, older: older.length, own: own.length, families: byFamily, markdown: lines.join('\n') };
}

const ENTITY_LINE = /^\s+([A-Z][A-Z0-9_]*): (.+); \/\/ (.+)$/;

/** The files that merge entities into the stream's map: one `entities.ts` per domain. */
export function entityFiles(): Array<{ domain: string; file: string }> {
  const domains = join(root, 'src/domains');
  return readdirSync(domains)
    .sort()
    .filter((domain) => existsSync(join(domains, domain, 'entities.ts')))
    .map((domain) => ({ domain, file: `src/domains/${domain}/entities.ts` }));
}

/** The body of an entities file's `interface ChangeEntities { ... }`, line by line. */
export function entityLines(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const body = text.slice(text.indexOf('interface ChangeEntities {'));
  return body.slice(body.indexOf('\n') + 1, body.indexOf('\n  }')).split('\n');
}

/** The stream's entities, read from each domain's one-line entries (src/domains/<domain>/entities.ts). */
export function readEntities(): Array<{ name: string; record: string; domain: string; what: string }> {
  return entityFiles().flatMap(({ domain, file }) =>
    entityLines(file)
      .map((line) => ENTITY_LINE.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map(([, name, record, what]) => ({ name, record, domain, what })),
  );
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
export function replaceSection(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`the markers ${start} ... ${end} are missing`);
  return text.slice(0, i + start.length) + '\n' + content + '\n' + text.slice(j);
}

export function renderEntities(): string {
  const rows = readEntities().map((e) => `| \`${e.name}\` | ${e.domain} | ${e.what} | \`${e.record.replaceAll('|', '\\|')}\` |`);
  return ['| Entity | Domain | What | `update` (record type) |', '|---|---|---|---|', ...rows].join('\n');
}

/** The coverage by family the console's Operations view shows (bundled at build time, as the page it mirrors). */
export const renderConsoleCoverage = (c: Coverage): string =>
  JSON.stringify({ implemented: c.implemented, total: c.total, newer: c.newer, older: c.older, own: c.own, families: c.families }, null, 2) + '\n';

export const renderReadmeTotal = (c: Coverage) =>
  `Coverage: **${c.implemented} of ${c.total}** operations of the platform's catalogue, ${c.newer} of its newer public spec, ${c.older} of its older API, and ${c.own} of Gatehouse's own ([docs/coverage.md](docs/coverage.md), \`npm run coverage\`).`;

/** Every generated file with its fresh content. */
export async function generatedFiles(catalogueFile?: string): Promise<Array<{ file: string; content: string }>> {
  const catalogue = catalogueFile && existsSync(catalogueFile) ? namesFromCatalogue(catalogueFile) : readNames();
  const doc = await gatehouseOpenApi();
  const coverage = renderCoverage(doc, catalogue);
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  return [
    { file: 'scripts/catalogue-operations.txt', content: renderNames(catalogue) },
    { file: 'docs/coverage.md', content: coverage.markdown },
    { file: 'console/src/coverage.json', content: renderConsoleCoverage(coverage) },
    { file: 'docs/streaming.md', content: replaceSection(read('docs/streaming.md'), 'entities', renderEntities()) },
    { file: 'README.md', content: replaceSection(read('README.md'), 'coverage', renderReadmeTotal(coverage)) },
  ];
}
