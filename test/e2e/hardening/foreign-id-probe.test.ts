import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { seedSite } from '../../../src/domains/sites/service.js';
import { saveSnapshot } from '../../../src/store/snapshot.js';
import { BodyGenerator, seededRandom, withValueAt } from '../../helpers/fuzz-bodies.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

/** Both organizations get this site; the other's names carry a marker that no answer to the caller may hold. */
const site = (marker: string) => ({
  locations: [{ name: `${marker} HQ`, timeZone: 'UTC' }],
  permissionGroups: [{ name: `${marker} Viewers` }],
  users: [
    { name: `${marker} Ada`, email: `${marker.toLowerCase()}.ada@example.com` },
    { name: `${marker} Bob`, group: `${marker} Viewers` },
  ],
  people: [{ name: `${marker} Grace` }],
  schedules: [{ name: `${marker} Hours`, intervals: [{ start: 480, stop: 1080 }] }],
  cameras: [{ name: `${marker} Lobby`, location: `${marker} HQ` }],
  sensors: [{ name: `${marker} Button`, kind: 'button', location: `${marker} HQ` }],
  doors: [{ name: `${marker} Front`, location: `${marker} HQ`, schedule: `${marker} Hours`, cameras: [`${marker} Lobby`], access: [`${marker} Ada`] }],
  accessGroups: [{ name: `${marker} Staff`, members: [`${marker} Ada`] }],
  audioGateways: [{ name: `${marker} PA`, location: `${marker} HQ` }],
});
const THEIR_MARKER = 'Quokka';

type Seeded = Record<string, Record<string, string>>;
type Schema = Record<string, any>;

/** Which of a seeded site's categories a field's name says it holds (a guess from the name; the default is any record). */
function categoryOf(field: string, operation: string): string[] {
  const name = field.toLowerCase();
  if (name.includes('location')) return ['locations'];
  if (name.includes('door')) return ['doors'];
  if (name.includes('schedule')) return ['schedules'];
  if (name.includes('sensor')) return ['sensors'];
  if (name.includes('person') || name.includes('people')) return ['people'];
  if (name.includes('audio') || name.includes('gateway')) return ['audioGateways'];
  if (name.includes('camera') || name.includes('device')) return ['cameras', 'sensors', 'audioGateways'];
  if (name.includes('role') || (name.includes('group') && !operation.includes('accesscontrol'))) return ['permissionGroups'];
  if (name.includes('group')) return ['accessGroups'];
  if (name.includes('user') || name.includes('principal')) return ['users'];
  return ['locations', 'cameras', 'users', 'doors'];
}

interface IdField {
  /** Property names, `0` for an array's item, `*` for a map's value. */
  path: string[];
  array: boolean;
}

/** The fields of a request schema that hold ids (a RUUID pattern, or a name ending in Uuid or Uuids), to depth four. */
function idFields(schema: Schema | undefined, path: string[] = [], out: IdField[] = []): IdField[] {
  if (!schema || path.length > 4) return out;
  const branch = (schema.anyOf ?? schema.oneOf)?.find((s: Schema) => s.type !== 'null');
  if (branch) return idFields(branch, path, out);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  const name = path.at(-1) ?? '';
  const ruuid = (s: Schema | undefined) => typeof s?.pattern === 'string' && s.pattern.includes('{22}');
  if (type === 'string' && (ruuid(schema) || /uuid$/i.test(name))) out.push({ path, array: false });
  if (type === 'array' && (ruuid(schema.items) || (/uuids$/i.test(name) && schema.items?.type === 'string'))) out.push({ path, array: true });
  if (type === 'object') for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) idFields(sub, [...path, key], out);
  if (type === 'array' && schema.items?.type === 'object') idFields(schema.items, [...path, '0'], out);
  return out;
}

/**
 * The wide probe: every id field of every operation of /openapi.json, filled with another organization's id
 * (of the kind the field's name says) and with a made-up one, called as the caller's organization. No answer
 * may hold the other organization's names, nothing of the other organization may change, and no row the
 * caller's organization keeps may hold either id afterwards.
 */
forEachDialect('the wide probe: foreign and made-up ids in every id field of every operation', (dialect) => {
  let server: TestServer;
  let mine: TestOrg;
  let theirs: TestOrg;
  let theirSite: Seeded;
  let mySite: Seeded;
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-probe-'));
  before(async () => {
    server = await startTestServer(dialect);
    mine = await server.createOrg('Probe Mine');
    theirs = await server.createOrg(`${THEIR_MARKER} Org`);
    mySite = (await seedSite(server.gatehouse.deps, mine.orgUuid, site('Mine'))) as unknown as Seeded;
    theirSite = (await seedSite(server.gatehouse.deps, theirs.orgUuid, site(THEIR_MARKER))) as unknown as Seeded;
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every table's rows, from a snapshot of the store. */
  let snapshots = 0;
  const tables = async (): Promise<Record<string, Array<Record<string, unknown>>>> => {
    const name = `probe-${++snapshots}`;
    await saveSnapshot(server.gatehouse.deps.store, dataDir, name, Date.now());
    return JSON.parse(readFileSync(join(dataDir, 'snapshots', `${name}.json`), 'utf8')).tables;
  };
  // What says when a call was made rather than what an organization keeps.
  const isLog = (table: string) => /audit|change_|outbox|journal|rate|deliver|request/.test(table);
  const rowsOf = (all: Record<string, Array<Record<string, unknown>>>, orgUuid: string) =>
    Object.entries(all)
      .filter(([table]) => !isLog(table))
      .flatMap(([table, rows]) => rows.filter((row) => row.org_uuid === orgUuid).map((row) => `${table} ${JSON.stringify(row)}`));

  it('answers no foreign name, changes nothing of the other organization and stores neither id', { timeout: 600_000 }, async () => {
    const app = server.gatehouse.http;
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const theirsBefore = rowsOf(await tables(), theirs.orgUuid).sort();
    const generator = new BodyGenerator(seededRandom(37));
    const leaks: string[] = [];
    const madeUp: string[] = [];
    let calls = 0;
    let n = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const schema = item.post?.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const fields = idFields(schema);
      // A valid body whose every id field names the caller's own record of the field's kind, so that the call
      // goes as deep as it can; then one field at a time is the probe's.
      const recordOf = (seeded: Seeded, field: IdField) =>
        categoryOf(field.path.filter((p) => p !== '0').at(-1)!, path)
          .map((c) => Object.values(seeded[c] ?? {})[0])
          .find(Boolean)!;
      const valid = fields.reduce<unknown>(
        (body, field) => withValueAt(body, field.path, field.array ? [recordOf(mySite, field)] : recordOf(mySite, field)),
        generator.value(schema, true),
      );
      for (const field of fields) {
        const foreign = recordOf(theirSite, field);
        const invented = `Probe${String(++n).padStart(6, '0')}xxxxxxxxxxx`.slice(0, 22);
        madeUp.push(invented);
        for (const id of [foreign, invented]) {
          const body = withValueAt(valid, field.path, field.array ? [id] : id);
          const response = await app.inject({ method: 'POST', url: path, headers: { 'x-auth-apikey': mine.apiKey }, payload: body as object });
          calls++;
          if (response.statusCode >= 500) leaks.push(`${path} ${field.path.join('.')}: ${response.statusCode}`);
          if (response.body.includes(THEIR_MARKER)) leaks.push(`${path} ${field.path.join('.')}: the answer names the other organization's records`);
        }
      }
    }
    assert.ok(calls > 500, `${calls} calls`);
    assert.deepEqual(leaks, []);
    const after = await tables();
    assert.deepEqual(rowsOf(after, theirs.orgUuid).sort(), theirsBefore, 'nothing of the other organization changed');
    const theirIds = Object.values(theirSite).flatMap((byName) => Object.values(byName ?? {}));
    const stored = rowsOf(after, mine.orgUuid).flatMap((row) =>
      [...theirIds, ...madeUp]
        .filter((id) => row.includes(id))
        .map((id) => `${row.slice(0, row.indexOf(' '))} ${row.match(/"uuid":"([^"]+)"/)?.[1] ?? ''} holds ${id}`),
    );
    assert.deepEqual(stored, [], 'no row of the caller keeps a foreign or made-up id');
  });
});
