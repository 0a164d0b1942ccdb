import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const readPaths = (file: string): string[] => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures', file), 'utf8'));
/**
 * Every path of the platform's public catalogue (names only), and those of its newer public spec that Gatehouse
 * answers: to tell Gatehouse's own operations apart.
 */
const NEWER_PATHS = readPaths('platform-paths-newer.json');
/** Paths of the platform's older API, which its examples still call (client-calls.md). */
const OLDER_PATHS = readPaths('platform-paths-older.json');
const PLATFORM_PATHS = new Set<string>([...readPaths('platform-paths.json'), ...NEWER_PATHS, ...OLDER_PATHS]);
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

// The document is built from the route schemas alone; the store dialect plays no part.
describe('GET /openapi.json: what generated clients read', () => {
  let server: TestServer;
  let doc: any;
  let dir: string;
  before(async () => {
    server = await startTestServer('sqlite');
    doc = await (await fetch(`${server.rest}/openapi.json`)).json();
    dir = mkdtempSync(join(tmpdir(), 'gh-openapi-'));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The POST operations: the API-key operations (GET /api/oauth/authorize is a browser's page, docs/oauth.md).
  const operations = () =>
    Object.entries<any>(doc.paths)
      .map(([path, item]) => ({ path, op: item.post }))
      .filter(({ op }) => op);

  it('marks every operation the platform does not have with x-gatehouse-extension and the Gatehouse tag, and no other', () => {
    const wrong: string[] = [];
    for (const { path, op } of operations()) {
      const extension = !PLATFORM_PATHS.has(path);
      if ((op['x-gatehouse-extension'] === true) !== extension) wrong.push(`${path}: x-gatehouse-extension should be ${extension}`);
      if (op.tags.includes('Gatehouse') !== extension) wrong.push(`${path}: Gatehouse tag should be ${extension ? 'present' : 'absent'}`);
    }
    assert.deepEqual(wrong, []);
    for (const known of [
      '/api/integrations/getDeliveryLog',
      '/api/button/getRuleFiringsForButton',
      '/api/button/rotateWebhookSigningSecret',
      '/api/event/deletePolicyAlerts',
      '/api/integrations/IoT/smartSensorEvent',
    ]) {
      assert.equal(doc.paths[known].post['x-gatehouse-extension'], true, known);
    }
  });

  it("marks the platform's operations outside its catalogue with x-platform-source: the older API's every one, the newer spec's as declared", () => {
    const wrong: string[] = [];
    const catalogue = new Set(readPaths('platform-paths.json'));
    for (const { path, op } of operations()) {
      const mark = op['x-platform-source'];
      if (mark === undefined) continue;
      if (catalogue.has(path)) wrong.push(`${path}: in the catalogue, yet marked ${mark}`);
      const expected = OLDER_PATHS.includes(path) ? 'older-api' : NEWER_PATHS.includes(path) ? 'newer-public-spec' : null;
      if (mark !== expected) wrong.push(`${path}: marked ${mark}, its fixture says ${expected}`);
    }
    for (const path of OLDER_PATHS) if (doc.paths[path]?.post['x-platform-source'] !== 'older-api') wrong.push(`${path}: not marked older-api`);
    assert.deepEqual(wrong, []);
    assert.equal(doc.paths['/api/badgereader/getMinimalStateList'].post['x-platform-source'], 'newer-public-spec');
  });

  it('documents the 400, 401 and 403 answers of every operation, and asks for x-auth-scheme only as an option', () => {
    for (const { path, op } of operations())
      assert.deepEqual(
        ['400', '401', '403'].filter((s) => !op.responses[s]),
        [],
        path,
      );
    assert.ok(
      doc.security.some((alternative: object) => Object.keys(alternative).join() === 'apiKey'),
      JSON.stringify(doc.security),
    );
    assert.ok(doc.servers?.length > 0);
  });

  it('declares, on every request field that holds an id, the kind of record it names or why it names none', () => {
    // An id field: a RUUID, or a name that says so (uuid, cameraUuid, groupUuids, deviceId, externalIds, ...).
    const idName = /(?:^ids?|Ids?|^uuids?|Uuids?|ID|IDs)$/;
    const holdsRuuid = (s: any) => typeof s?.pattern === 'string' && s.pattern.includes('{22}');
    const undeclared: string[] = [];
    // `x-ref` (a kind, or false for NotRef) on an array or a nullable wrapper speaks for its items and branches.
    const walk = (s: any, name: string, where: string, declared: boolean): void => {
      if (!s || typeof s !== 'object') return;
      const marked = declared || s['x-ref'] !== undefined;
      for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(branch, name, where, marked);
      const types = [s.type].flat();
      if (types.includes('string') && (holdsRuuid(s) || idName.test(name)) && !marked) undeclared.push(where);
      if (types.includes('array') && s.items) walk(s.items, name, `${where}[]`, marked);
      for (const [key, sub] of Object.entries<any>(s.properties ?? {})) walk(sub, key, where ? `${where}.${key}` : key, false);
      const values = [s.additionalProperties, ...Object.values<any>(s.patternProperties ?? {})].filter((v) => v && typeof v === 'object');
      if (values.length > 0 && holdsRuuid(s.propertyNames) && s['x-ref-keys'] === undefined && !marked) undeclared.push(`${where} (keys)`);
      for (const value of values) walk(value, name, `${where}.*`, false);
    };
    const found: string[] = [];
    for (const { path, op } of operations()) {
      undeclared.length = 0;
      walk(op.requestBody?.content?.['application/json']?.schema, '', '', false);
      found.push(...undeclared.map((field) => `${path} ${field}`));
      for (const p of op.parameters ?? [])
        if ((holdsRuuid(p.schema) || idName.test(p.name)) && p.schema?.['x-ref'] === undefined) found.push(`${path} ?${p.name}`);
    }
    assert.deepEqual(found, [], "RefUuid('kind') / RefMap(...) or NotRef(reason, ...) on each (src/schemas/record-kinds.ts)");
  });

  it('lints clean with @redocly/cli and its recommended rules, offline', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const run = promisify(execFile);
    const result = await run(process.execPath, [REDOCLY, 'lint', '--extends=recommended', '--format=stylish', file], { env, timeout: 120_000 }).catch((e) => e);
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    assert.equal(result.code ?? 0, 0, output);
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /^\s*\d+:\d+\s+(error|warning)\s/m, output);
    assert.doesNotMatch(output, /You have \d+ warning/, output);
  });
});
