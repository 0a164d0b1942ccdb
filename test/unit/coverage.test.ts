import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ChangeEntities } from '../../src/bus/entities.js';
import type { WriteScope } from '../../src/bus/write.js';
import {
  gatehouseOpenApi,
  generatedFiles,
  operationIdMismatches,
  entityFiles,
  entityLines,
  readEntities,
  readNames,
  readNewerPaths,
  renderCoverage,
  root,
  type OpenApiDoc,
} from '../../scripts/lib/coverage.js';

describe('npm run coverage: the coverage page and the generated docs', () => {
  let doc: OpenApiDoc;
  before(async () => {
    doc = await gatehouseOpenApi();
  });

  it('answers every implemented catalogue path under the catalogue operationId', () => {
    assert.deepEqual(operationIdMismatches(doc, readNames()), []);
  });

  it('finds an implemented catalogue path whose operationId differs from the catalogue', () => {
    const [path, methods] = Object.entries(doc.paths).find(([p]) => readNames().some((o) => o.path === p))!;
    const renamed: OpenApiDoc = { paths: { ...doc.paths, [path]: { post: { ...Object.values(methods)[0], operationId: 'somethingElse' } } } };
    assert.equal(operationIdMismatches(renamed, readNames()).length, 1);
  });

  it('gives every operation of /openapi.json its own operationId', () => {
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  it('counts an operation that is added or removed', () => {
    const catalogue = readNames();
    const base = renderCoverage(doc, catalogue);
    // Every catalogue operation is answered: take one away and it is counted, and listed, as not yet.
    const taken = catalogue.find((o) => o.path in doc.paths)!;
    const { [taken.path]: _, ...rest } = doc.paths;
    const fewer = renderCoverage({ paths: rest }, catalogue);
    assert.equal(fewer.implemented, base.implemented - 1);
    assert.match(fewer.markdown, new RegExp(`- \\[ \\] \`${taken.path}\``));
    assert.equal(base.total, catalogue.length);
  });

  it("lists the platform's newer public spec apart from Gatehouse's own", () => {
    const { markdown, newer } = renderCoverage(doc, readNames());
    const [, newerPart, ownPart] = markdown.split(/^## (?:The platform's newer public spec|Gatehouse's own)$/m);
    // A newer path that is an alias of a catalogue operation (camera/getFacetedConfig) counts with that operation.
    const answered = readNewerPaths().filter((p) => p in doc.paths && !/^Alias of /.test(Object.values<any>(doc.paths[p])[0]?.description ?? ''));
    assert.equal(newer, answered.length);
    assert.ok(answered.includes('/api/eventSearchV2/searchIntegrationAccessEvents'));
    for (const path of answered) {
      assert.ok(newerPart.includes(`\`${path}\``), path);
      assert.ok(!ownPart.includes(`\`${path}\``), path);
    }
  });

  it('keeps docs/coverage.md, the entity list of docs/streaming.md, the README total and the names list fresh (npm run coverage)', async () => {
    for (const { file, content } of await generatedFiles()) {
      assert.ok(readFileSync(join(root, file), 'utf8') === content, `${file} is stale: run npm run coverage`);
    }
  });

  it('lists every entity of the typed map, one line each', () => {
    const names = readEntities().map((e) => e.name);
    const declared = entityFiles().flatMap(({ file }) => entityLines(file).map((line) => /^ {4}([A-Z][A-Z0-9_]*):/.exec(line)?.[1] ?? line));
    assert.deepEqual(names, declared, "each entry of a domain's ChangeEntities is `NAME: Record; // what it is`");
    assert.equal(new Set(names).size, names.length, 'each entity is declared once');
    const streaming = readFileSync(join(root, 'docs/streaming.md'), 'utf8');
    for (const name of names) assert.ok(streaming.includes(`| \`${name}\` |`), `docs/streaming.md lists ${name}`);
  });
});

// Compile-time: w.change() takes only the map's names, each with its own record (tsc checks this file).
export function typedChanges(w: WriteScope, door: ChangeEntities['DOOR']): void {
  w.change({ entity: 'DOOR', entityUuid: door.uuid, type: 'UPDATE', update: door });
  // @ts-expect-error an entity name outside the map
  w.change({ entity: 'NO_SUCH_ENTITY', entityUuid: door.uuid, type: 'UPDATE', update: door });
  // @ts-expect-error a record of another entity
  w.change({ entity: 'SCHEDULE', entityUuid: door.uuid, type: 'UPDATE', update: door });
}
