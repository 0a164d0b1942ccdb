/**
 * `npm run new-operation -- /api/<family>/<name> [catalogue.json]`: writes the skeleton of a new operation in its
 * domain folder (the URL prefix table of CONTRIBUTING.md says which): its TypeBox request and response schemas
 * written from the catalogue's field names and types, a route, a service that refuses until it is filled in, and
 * an end-to-end test that fails until then. Then follow CONTRIBUTING.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_CATALOGUE, root } from './lib/coverage.js';
import { domainFolderOf } from './lib/domain-folders.js';
import { TypeBoxWriter, type CatalogueSchema } from './lib/typebox-from-catalogue.js';

interface CatalogueDoc {
  paths: Record<string, Record<string, { operationId: string; tags?: string[]; requestBody?: Body; responses?: Record<string, Body> }>>;
  components: { schemas: Record<string, CatalogueSchema> };
}
interface Body {
  content?: Record<string, { schema?: CatalogueSchema }>;
}

function die(message: string): never {
  console.error(message);
  process.exit(1);
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

const [path, catalogueArg] = process.argv.slice(2);
if (!path || !/^\/api\/[A-Za-z]+\/([A-Za-z0-9]+\/)*[A-Za-z0-9]+$/.test(path)) die('usage: npm run new-operation -- /api/<family>/<name> [catalogue.json]');
const catalogueFile = catalogueArg ?? DEFAULT_CATALOGUE;
if (!existsSync(catalogueFile)) die(`the catalogue is not at ${catalogueFile}: give its path as the second argument`);
const catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8')) as CatalogueDoc;
const entry = catalogue.paths[path]?.post;
if (!entry) die(`${path} is not a POST operation of the catalogue`);
const folder = domainFolderOf(path);
if (!folder) die(`no domain folder for ${path}: add its URL prefix to the table in CONTRIBUTING.md`);

const writer = new TypeBoxWriter(catalogue.components.schemas);
// From the operation's folder (src/domains/<domain>[/<sub-family>]) up to src/.
const up = '../'.repeat(folder.split('/').length + 1);
const testFolder = folder.split('/')[0];
const operationId = entry.operationId;
const Name = pascal(operationId);
const file = kebab(operationId);
const requestSchema = entry.requestBody?.content?.['application/json']?.schema ?? { type: 'object', properties: {} };
const responseSchema = entry.responses?.['200']?.content?.['application/json']?.schema ?? { type: 'object', properties: {} };
const responseObject = writer.object(responseSchema, true, 1);
const responseFields = responseObject === 'Type.Object({})' ? '{}' : responseObject.slice('Type.Object('.length, -1);
const tag = pascal(path.split('/')[2]);
const requestSource = writer.object(requestSchema, false, 1);
const commonImports = (source: string) => ['Field', 'ResponseOf', 'Ruuid'].filter((name) => name === 'ResponseOf' || source.includes(`${name}(`)).join(', ');
// The request's id fields are placeholders (RefUuid('TODO_KIND'), NotRef('TODO_REASON', ...)) that do not compile until chosen.
const refImports = ['NotRef', 'RefUuid'].filter((name) => requestSource.includes(`${name}(`));
const refImportLine = refImports.length > 0 ? `import { ${refImports.join(', ')} } from '${up}schemas/record-kinds.js';\n` : '';

const files: Record<string, string> = {
  [`src/domains/${folder}/${file}.schemas.ts`]: `import { Type, type Static } from 'typebox';
import { ${commonImports(requestSource + responseFields)} } from '${up}schemas/common.js';
${refImportLine}
// Written by npm run new-operation from the catalogue's field names and types: check each field against the spec
// (required fields, formats, bounds) and use the shared pieces of src/schemas/common.ts. Each id field of the
// request says the kind of record it names, RefUuid('<kind>') (the edge checks it against the caller's
// organization; a stored id must be one), or why it names none, NotRef('<reason>', ...): replace each TODO_KIND
// and TODO_REASON with one of src/schemas/record-kinds.ts (CONTRIBUTING.md, step 2).

export const ${Name}Request = ${requestSource};
export type ${Name}Input = Static<typeof ${Name}Request>;

export const ${Name}Response = ResponseOf(${responseFields});
export type ${Name}Result = Static<typeof ${Name}Response>;
`,
  [`src/domains/${folder}/${file}.service.ts`]: `import type { CallerContext } from '${up}context.js';
import type { Deps } from '${up}deps.js';
import { fail } from '${up}errors.js';
import type { ${Name}Input, ${Name}Result } from './${file}.schemas.js';

/**
 * \`${operationId}\`: check that what the input names belongs to ctx.orgUuid (another organization's ids answer
 * as unknown ones), decide, write through write(deps, ctx, async (w) => ...) with w.change(...) for the stream,
 * and answer. Queries go in the domain's store.
 */
export async function ${operationId}(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, input: ${Name}Input): Promise<${Name}Result> {
  void deps;
  void ctx;
  void input;
  throw fail('NOT_ALLOWED', '${operationId} is not implemented yet');
}
`,
  [`src/domains/${folder}/${file}.routes.ts`]: `import type { Deps } from '${up}deps.js';
import { operation, type ApiApp } from '${up}edge/operation.js';
import { ${Name}Request, ${Name}Response } from './${file}.schemas.js';
import { ${operationId} } from './${file}.service.js';

/** Listed in src/http/domains.ts, with the domain's other route plugins. */
export function ${operationId}Routes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '${path}',
      operationId: '${operationId}',
      summary: 'TODO: one line',
      tags: ['${tag}'],
      body: ${Name}Request,
      response: ${Name}Response,
    },
    (input, ctx) => ${operationId}(deps, ctx, input),
  );
}
`,
  [`test/e2e/${testFolder}/${file}.test.ts`]: `import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';

// 401, the other region's key, a body of the wrong structure and the JSON envelope are covered for every
// operation by test/e2e/http/every-operation.test.ts. Here: what this operation does.
forEachDialect('${path}', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    org = await server().createOrg('${Name} Org');
    other = await server().createOrg('Other Org');
  });
  const { ok } = apiAs(server, () => org.apiKey);

  it('answers with what it did, and keeps it', async () => {
    const answer = await ok('${path}', {});
    assert.ok(answer);
    assert.fail('TODO: assert the answer, then read the state back through the API');
  });

  it("answers another organization's ids exactly as unknown ones, and changes nothing", async () => {
    assert.ok(other.apiKey);
    assert.fail('TODO');
  });

  // If the operation changes state: it('announces the change on the stream', ...) (see test/e2e/streaming/helpers.ts).
});
`,
};

for (const relative of Object.keys(files)) {
  const target = join(root, relative);
  if (existsSync(target)) die(`${relative} exists already: nothing written`);
}
for (const [relative, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, relative)), { recursive: true });
  writeFileSync(join(root, relative), content);
  console.log(`wrote ${relative}`);
}
console.log(`
Next (CONTRIBUTING.md):
  1. register it: add ${operationId}Routes to the domain's plugins in src/http/domains.ts (or move the operation into the folder's routes.ts)
  2. fill in the schemas (each TODO_KIND / TODO_REASON: a record kind or a NotRef reason), the service (and the store), and the test; document new error codes in docs/errors.md
  3. a new stream entity: one line in src/domains/${folder.split('/')[0]}/entities.ts
  4. npm run coverage; GATEHOUSE_TEST_CONCURRENCY=2 node scripts/run-tests.mjs test/e2e/${testFolder}/${file}.test.ts`);
