import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { PARTNERS, type PartnerKind, type PartnerSpec, type SettingsOp } from '../../../src/domains/integrations/partners/catalogue.js';
import { answeredFields } from '../../../src/domains/integrations/partners/answers.js';
import { SECRET_TYPES, type FieldType } from '../../../src/domains/integrations/partners/fields.js';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import type { TestOrg } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

/*
 * The settings engine over every partner of its table: each partner's settings are written, read back with
 * the secrets masked, announced on the stream, hidden from and untouchable by another organization, and deleted.
 */

// The partners whose settings catalogue operations keep (the Honeywell ones are provisioned: partners-behaviours.test.ts).
const partners = (Object.entries(PARTNERS) as Array<[PartnerKind, PartnerSpec]>).filter(([, spec]) => spec.ops.length > 0);
const opsOf = (spec: PartnerSpec, verb: SettingsOp['verb']) => spec.ops.filter((op) => op.verb === verb);
/** The current (not deprecated) operation of a verb. */
const currentOp = (spec: PartnerSpec, verb: SettingsOp['verb']) => opsOf(spec, verb).find((op) => !op.successor) ?? opsOf(spec, verb)[0];

/** A value of each field type, the site's records where the type names some. */
function sample(type: FieldType, field: string, kind: string, site: IntegrationSite, standIn: Receiver, userUuid: string): unknown {
  const camera = site.cameras.Lobby;
  const values: Record<FieldType, unknown> = {
    bool: true,
    int: 7,
    number: 1.5,
    text: `${field} text`,
    url: standIn.url,
    secret: `${kind}-${field}-plaintext-${field.length}XYZ`,
    secretUrl: `https://hooks.example.com/services/${kind}/${field}-plaintext`,
    partnerId: `${field}-ext-1`,
    device: camera,
    user: userUuid,
    texts: ['one', 'two'],
    textMap: { a: 'b' },
    intMap: { a: 1 },
    cameras: [camera],
    cameraMap: { 'door-1': [camera] },
    doors: { 'door-1': { doorName: 'Front', locationUuid: site.locations.HQ, assignedCameraList: [camera] } },
    locations: [site.locations.HQ],
    locationMap: { 'ext-1': site.locations.HQ },
    intByLocation: { [site.locations.HQ]: 30 },
    textByLocation: { [site.locations.HQ]: 'by the side door' },
    textsByLocation: { [site.locations.HQ]: ['one'] },
    recordsByLocation: { [site.locations.HQ]: [{}] },
    contactByLocation: { [site.locations.HQ]: { name: 'Ann', phoneNumber: '+1 555 0100' } },
    promptThemeByLocation: { [site.locations.HQ]: 'HUMAN' },
    // A partner's records are kept as sent; an empty one is a record of every catalogue type.
    object: {},
    records: { r1: {} },
  };
  return values[type];
}
const masked = (type: FieldType, value: string) => (type === 'secretUrl' ? 'https://hooks.example.com/****' : `****${value.slice(-4)}`);

/** A value of the wrong type for a field of the type (one the lenient parser cannot read either). */
const wrong = (type: FieldType): unknown =>
  ['bool', 'int', 'number'].includes(type) ? 'not-a-value' : type.endsWith('s') || type.endsWith('Map') ? 'x' : { x: 1 };

forEachDialect('the partner settings engine', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  let otherSite: IntegrationSite;
  // A partner instance named by the settings themselves (PlaceOS, an OpenAI-compatible server): it accepts any credentials.
  let standIn: Receiver;
  const changes: ChangeEvent[] = [];
  let unsubscribe = () => {};
  before(async () => {
    org = await server().createOrg('Partners Org');
    other = await server().createOrg('Other Org');
    site = await seedIntegrationSite(server(), org.orgUuid);
    otherSite = await seedIntegrationSite(server(), other.orgUuid);
    unsubscribe = server().gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
    standIn = await startReceiver(() => ({ status: 200, body: {} }));
  });
  after(async () => {
    unsubscribe();
    await standIn.close();
  });

  const call = (path: string, body: unknown, key = org.apiKey) => server().call(path, body, { key });
  const settingsOf = (spec: PartnerSpec, kind: string) =>
    Object.fromEntries(Object.entries(spec.fields).map(([field, type]) => [field, sample(type, field, kind, site, standIn, org.userUuid)]));
  const bodyOf = (op: SettingsOp, settings: Record<string, unknown>) => (op.body ? { [op.body]: settings } : settings);
  /** The settings as read back: through the partner's get, else the organization's listing. */
  async function readBack(spec: PartnerSpec, key = org.apiKey): Promise<Record<string, any> | null> {
    const get = currentOp(spec, 'get');
    if (!get) return (await call('/api/integrations/org/getOrgIntegrations', {}, key)).json.orgIntegrations[spec.listedAs!] ?? null;
    const r = await call(get.path, {}, key);
    assert.equal(r.json.error, false, r.text);
    const field = get.answer === 'v2' || !get.answer ? 'orgIntegrationV2' : get.answer;
    if (!(field in r.json)) return null;
    assert.notEqual(r.json[field], null, `${field}: left out, never null`);
    return r.json[field];
  }

  it('writes every partner, reads it back with its secrets masked, and announces it without them', async () => {
    for (const [kind, spec] of partners) {
      const settings: Record<string, unknown> = { enabled: true, ...settingsOf(spec, kind) };
      const r = await call(currentOp(spec, 'update').path, bodyOf(currentOp(spec, 'update'), settings));
      assert.equal(r.status, 200, `${kind}: ${r.text}`);
      assert.equal(r.json.error, false, `${kind}: ${r.text}`);
      assert.deepEqual(r.json.failedGuids, [], kind);

      const got = (await readBack(spec))!;
      assert.equal(got.enabled, true, kind);
      // Exactly the fields the read's catalogue type has: a stored field it lacks (a secret, say) is not answered.
      const answered = answeredFields(kind, currentOp(spec, 'get')?.answer === 'v2' ? 'v2' : 'settings');
      assert.deepEqual(
        Object.keys(got).filter((f) => !answered.includes(f)),
        [],
        kind,
      );
      for (const [field, type] of Object.entries(spec.fields).filter(([f]) => answered.includes(f))) {
        const sent = settings[field];
        if (SECRET_TYPES.has(type)) assert.equal(got[field], masked(type, sent as string), `${kind}.${field} masked`);
        else assert.deepEqual(got[field], sent, `${kind}.${field}`);
      }
      const secrets = Object.entries(spec.fields).filter(([, type]) => SECRET_TYPES.has(type));
      const change = changes.filter((c) => c.entity === 'INTEGRATION' && (c.update as { integration?: string }).integration === kind).at(-1);
      assert.ok(change, `${kind}: a change event`);
      for (const [field] of secrets) {
        const plaintext = settings[field] as string;
        assert.ok(!JSON.stringify(got).includes(plaintext), `${kind}.${field} not answered`);
        assert.ok(!JSON.stringify(change).includes(plaintext), `${kind}.${field} not announced`);
      }
    }
  });

  it('keeps a stored secret when its masked form is sent back, and refuses a made-up masked value', async () => {
    const spec = PARTNERS.KISI;
    const update = currentOp(spec, 'update');
    const before = (await readBack(spec))!;
    assert.equal((await call(update.path, bodyOf(update, { enabled: true, apiSecretKey: before.apiSecretKey }))).json.error, false);
    const row = await server()
      .gatehouse.deps.store.db.selectFrom('integrations')
      .selectAll()
      .where('org_uuid', '=', org.orgUuid)
      .where('kind', '=', 'KISI')
      .executeTakeFirstOrThrow();
    assert.ok(!row.secrets.includes('plaintext') && !row.settings.includes('plaintext'), 'sealed at rest');
    assert.equal((await readBack(spec))!.apiSecretKey, before.apiSecretKey);
    const refused = await call(update.path, bodyOf(update, { apiSecretKey: '****abcd' }));
    assert.equal(refused.json.error, true);
    assert.match(refused.json.errorMsg, /apiSecretKey/);
  });

  it('answers another organization none of them, and lets it delete none', async () => {
    for (const [kind, spec] of partners) {
      assert.equal(await readBack(spec, other.apiKey), null, kind);
      for (const op of opsOf(spec, 'delete')) {
        const r = await call(op.path, {}, other.apiKey);
        assert.equal(r.json.error, true, `${op.path}: ${r.text}`);
        assert.match(r.json.errorMsg, /not found/);
      }
      assert.notEqual(await readBack(spec), null, `${kind} still there`);
    }
  });

  it("leaves another organization's cameras out (failedGuids) and refuses its locations", async () => {
    const omnialert = currentOp(PARTNERS.OMNIALERT, 'update');
    const r = await call(omnialert.path, { omnialertSettings: { enabled: true, associatedCameras: [site.cameras.Hall, otherSite.cameras.Lobby] } });
    assert.deepEqual(r.json.failedGuids, [otherSite.cameras.Lobby]);
    assert.match(r.json.webhookToken, /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual((await readBack(PARTNERS.OMNIALERT))!.associatedCameras, [site.cameras.Hall]);

    const boulevard = currentOp(PARTNERS.BOULEVARD, 'update');
    const before = await readBack(PARTNERS.BOULEVARD);
    const refused = await call(boulevard.path, { enabled: true, boulevardLocationToRhombusLocationMap: { x: otherSite.locations.HQ } });
    assert.equal(refused.json.error, true);
    assert.match(refused.json.errorMsg, new RegExp(`Location ${otherSite.locations.HQ} not found`));
    assert.deepEqual(await readBack(PARTNERS.BOULEVARD), before, 'nothing changed');
  });

  it('refuses a value of the wrong type and a field it does not know, naming the field', async () => {
    for (const [kind, spec] of partners) {
      const update = currentOp(spec, 'update');
      const [field, type] = Object.entries(spec.fields)[0] ?? ['enabled', 'bool'];
      const r = await call(update.path, bodyOf(update, { [field]: wrong(type) }));
      assert.equal(r.status, 400, `${kind}.${field}: ${r.text}`);
      assert.match(r.json.errorMsg, new RegExp(field), kind);
      const unknown = await call(update.path, bodyOf(update, { enabled: false, notASetting: 1 }));
      assert.equal(unknown.status, 400, `${kind}: ${unknown.text}`);
      assert.match(unknown.json.errorMsg, /notASetting/, kind);
    }
  });

  it('answers the deprecated and un-prefixed names of the same settings', async () => {
    const r = await call('/api/integrations/updateAmtIntegration', { amtSettings: { enabled: false, email: 'ops@example.com' } });
    assert.equal(r.json.error, false, r.text);
    assert.ok(r.headers.get('deprecation'));
    const listed = (await call('/api/integrations/org/getOrgIntegrations', {})).json.orgIntegrations;
    assert.equal(listed.amtSettings.email, 'ops@example.com');
    const v2 = (await call('/api/integrations/org/getOrgIntegrationsV2', {})).json.orgIntegrationsV2;
    assert.equal(v2.BRIVO.integration, 'BRIVO');
    const kisiV1 = (await call('/api/integrations/accessControl/getKisiIntegration', {})).json.kisiSettings;
    assert.equal(kisiV1.apiSecretKey, (await readBack(PARTNERS.KISI))!.apiSecretKey);
  });

  it('deletes every partner: read back as none, announced, and a second delete finds nothing', async () => {
    for (const [kind, spec] of partners) {
      const [first, ...rest] = opsOf(spec, 'delete');
      if (!first) continue;
      const r = await call(first.path, {});
      assert.equal(r.json.error, false, `${first.path}: ${r.text}`);
      assert.equal(await readBack(spec), null, kind);
      assert.ok(
        changes.some((c) => c.entity === 'INTEGRATION' && c.type === 'DELETE' && (c.update as { integration?: string }).integration === kind),
        kind,
      );
      for (const op of rest) assert.match((await call(op.path, {})).json.errorMsg, /not found/, op.path);
    }
  });
});
