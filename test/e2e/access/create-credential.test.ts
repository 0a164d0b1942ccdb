import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { H10301_BAD_PARITY, H10301_CARD } from './fixtures.js';

const PATH = '/api/accesscontrol/createAccessControlCredentialByHexValueAndType';

/** One real value of every type, as a reader would report it, and what it decodes to. */
const EVERY_TYPE: Array<{ credentialType: string; hexValue: string; value: string; lowercaseHexValue: string; extra?: Record<string, unknown> }> = [
  { credentialType: 'STANDARD_CSN', hexValue: '04A1B2C3D4E5F6', value: '04a1b2c3d4e5f6', lowercaseHexValue: '04a1b2c3d4e5f6' },
  { credentialType: 'PLATFORM_SECURE_CSN', hexValue: 'DEADBEEF', value: 'deadbeef', lowercaseHexValue: 'deadbeef' },
  {
    credentialType: 'PLATFORM_SECURE_MOBILE',
    hexValue: '00112233445566778899aabbccddeeff',
    value: '00112233445566778899aabbccddeeff',
    lowercaseHexValue: '00112233445566778899aabbccddeeff',
  },
  { credentialType: 'PIN_CODE', hexValue: '482916', value: '482916', lowercaseHexValue: '482916' },
  { credentialType: 'WIEGAND_H10301', hexValue: '014088B', value: '10:1093', lowercaseHexValue: '014088b', extra: { numValueBits: 26 } },
  { credentialType: 'WIEGAND_H10304', hexValue: '104d2df0ab', value: '1234:456789', lowercaseHexValue: '104d2df0ab' },
  { credentialType: 'WIEGAND_D10202', hexValue: '0c978c29c', value: '100:12345678', lowercaseHexValue: '0c978c29c' },
  { credentialType: 'WIEGAND_64BIT_RAW', hexValue: '0123456789abcdef', value: '81985529216486895', lowercaseHexValue: '0123456789abcdef' },
  { credentialType: 'VENDOR_CORP1000_STD_35', hexValue: '07d0df0aa', value: '1000:456789', lowercaseHexValue: '07d0df0aa' },
  { credentialType: 'VENDOR_CORP1000_STD_48', hexValue: '8f4240e99762', value: '1000000:7654321', lowercaseHexValue: '8f4240e99762' },
  { credentialType: 'CUSTOM', hexValue: 'BEEF', value: '0beef', lowercaseHexValue: '0beef', extra: { numValueBits: 20 } },
];

/** The catalogue's names, which answers carry, of the specification's types that it names otherwise. */
const ANSWERED: Record<string, string> = {
  PLATFORM_SECURE_CSN: 'RHOMBUS_SECURE_CSN',
  PLATFORM_SECURE_MOBILE: 'RHOMBUS_SECURE_MOBILE',
  VENDOR_CORP1000_STD_35: 'HID_CORP1000_STD_35',
  VENDOR_CORP1000_STD_48: 'HID_CORP1000_STD_48',
};

forEachDialect(`POST ${PATH}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Badges Inc');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  const create = (body: unknown, key = org.apiKey) => server.call(PATH, body, { key });

  it('requires authentication', async () => {
    const r = await server.call(PATH, { credentialType: 'PIN_CODE', hexValue: '1234' }, { key: '' });
    assert.equal(r.status, 401);
    assert.equal(r.json.errorMsg, 'Unauthenticated');
  });

  it('creates a credential of every type from a real value, with every field of the specification', async () => {
    const start = 1_700_000_000;
    for (const t of EVERY_TYPE) {
      const r = await create({
        credentialType: t.credentialType,
        hexValue: t.hexValue,
        userUuid: org.userUuid,
        startDateEpochSecInclusive: start,
        endDateEpochSecExclusive: start + 86400,
        ...t.extra,
      });
      assert.equal(r.status, 200);
      assert.equal(r.json.error, false, `${t.credentialType}: ${r.json.errorMsg}`);
      const c = r.json.credential;
      assert.equal(c.type, ANSWERED[t.credentialType] ?? t.credentialType, 'the catalogue names the type');
      assert.equal(c.value, t.value, t.credentialType);
      assert.equal(c.lowercaseHexValue, t.lowercaseHexValue, t.credentialType);
      assert.equal(c.workflowStatus, 'ACTIVE');
      assert.equal(c.orgUuid, org.orgUuid);
      assert.equal(c.userUuid, org.userUuid);
      assert.match(c.uuid, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(c.startDateEpochSecInclusive, start);
      assert.equal(c.endDateEpochSecExclusive, start + 86400);
      assert.equal(typeof c.createdAtMillis, 'number');
      assert.equal(c.updatedAtMillis, c.createdAtMillis);
      assert.equal(c.note, null);
      assert.equal(c.lastUsedAtMillis, null);
      for (const field of ['lastUsedAccessControlledDoorUuid', 'lastUsedLocationUuid', 'managedCredUuid']) assert.ok(field in c, field);
    }
  });

  it('answers the decoded fields of a Wiegand card beside the hex', async () => {
    const r = await create({ credentialType: 'WIEGAND_H10301', hexValue: '0b40288', userUuid: org.userUuid });
    assert.equal(r.json.error, false, r.json.errorMsg);
    assert.deepEqual(
      {
        facilityCode: r.json.credential.facilityCode,
        cardNumber: r.json.credential.cardNumber,
        value: r.json.credential.value,
      },
      { facilityCode: 90, cardNumber: 324, value: '90:324' },
    );
    assert.equal('numBits' in r.json.credential, false, 'the catalogue answers no frame length');
    const corp = await create({ credentialType: 'HID_CORP1000_STD_35', hexValue: '07d0df0aa', userUuid: other.userUuid }, other.apiKey);
    assert.equal(corp.json.error, false, corp.json.errorMsg);
    assert.equal(corp.json.credential.type, 'HID_CORP1000_STD_35', 'the catalogue name is an alias, and answered');
    assert.equal(corp.json.credential.value, '1000:456789', 'company:card');
    assert.equal('companyId' in corp.json.credential, false, 'the catalogue answers no company id');
  });

  it('refuses a value that fails its format, naming the rule', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { credentialType: 'WIEGAND_H10301', hexValue: H10301_BAD_PARITY },
        'hexValue: WIEGAND_H10301 trailing odd parity (bit 26, over bits 14-25) does not match',
      ],
      [{ credentialType: 'WIEGAND_H10301', hexValue: 'xyz' }, 'hexValue: must be hexadecimal digits (0-9, a-f)'],
      [{ credentialType: 'WIEGAND_H10301', hexValue: H10301_CARD.hex, numValueBits: 37 }, 'numValueBits: WIEGAND_H10301 values are 26 bits, not 37'],
      [
        { credentialType: 'VENDOR_CORP1000_STD_35', hexValue: '07d0df0ab' },
        'hexValue: VENDOR_CORP1000_STD_35 odd parity (bit 35, over two of every three bits) does not match',
      ],
      [{ credentialType: 'PIN_CODE', hexValue: '12ab' }, 'hexValue: a PIN_CODE is 4 to 12 digits (0-9) only'],
      [
        { credentialType: 'STANDARD_CSN', hexValue: 'abcdef' },
        'hexValue: a STANDARD_CSN value is a card serial number of 4, 7, 8, 10 bytes (twice as many hex digits)',
      ],
    ];
    for (const [body, errorMsg] of cases) {
      const r = await create({ ...body, userUuid: org.userUuid });
      assert.equal(r.status, 200);
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg }, JSON.stringify(body));
    }
  });

  it('refuses the same card value twice in one organization, whatever its leading zeros', async () => {
    const first = await create({ credentialType: 'WIEGAND_H10301', hexValue: '1ffffff', userUuid: org.userUuid });
    assert.equal(first.json.error, false, first.json.errorMsg);
    const again = await create({ credentialType: 'WIEGAND_H10301', hexValue: '01FFFFFF' });
    assert.deepEqual(
      { error: again.json.error, errorMsg: again.json.errorMsg },
      { error: true, errorMsg: 'The organization already has a credential with this value (WIEGAND_H10301 255:65535)' },
    );
    const elsewhere = await create({ credentialType: 'WIEGAND_H10301', hexValue: '1ffffff' }, other.apiKey);
    assert.equal(elsewhere.json.error, false, 'another organization may hold the same value');
  });

  it('lets a revoked credential release its value to a new one', async () => {
    const first = await create({ credentialType: 'PIN_CODE', hexValue: '7777', userUuid: org.userUuid });
    await server.call('/api/accesscontrol/revokeAccessControlCredential', { credentialUuid: first.json.credential.uuid }, { key: org.apiKey });
    const second = await create({ credentialType: 'PIN_CODE', hexValue: '7777', userUuid: org.userUuid });
    assert.equal(second.json.error, false, second.json.errorMsg);
    assert.notEqual(second.json.credential.uuid, first.json.credential.uuid);
  });

  it('refuses a start date that is not before the end date', async () => {
    const r = await create({
      credentialType: 'PIN_CODE',
      hexValue: '5151',
      startDateEpochSecInclusive: 1_800_000_000,
      endDateEpochSecExclusive: 1_800_000_000,
    });
    assert.deepEqual(
      { error: r.json.error, errorMsg: r.json.errorMsg },
      { error: true, errorMsg: 'startDateEpochSecInclusive must be before endDateEpochSecExclusive' },
    );
  });

  it("refuses another organization's user exactly as a missing one", async () => {
    const foreign = await create({ credentialType: 'PIN_CODE', hexValue: '6161', userUuid: other.userUuid });
    const missing = await create({ credentialType: 'PIN_CODE', hexValue: '6161', userUuid: 'AAAAAAAAAAAAAAAAAAAAAA' });
    assert.deepEqual(foreign.json, missing.json);
    assert.deepEqual({ error: foreign.json.error, errorMsg: foreign.json.errorMsg }, { error: true, errorMsg: 'User not found' });
  });

  it('creates an UNASSIGNED credential when no user is given', async () => {
    const r = await create({ credentialType: 'STANDARD_CSN', hexValue: '11223344' });
    assert.equal(r.json.credential.workflowStatus, 'UNASSIGNED');
    assert.equal(r.json.credential.userUuid, null);
  });

  it('answers 400 to a malformed body or an unknown type', async () => {
    for (const body of [
      { hexValue: '1234' },
      { credentialType: 'PIN_CODE' },
      { credentialType: 'MAGSTRIPE', hexValue: '1234' },
      { credentialType: 'PIN_CODE', hexValue: '1234', numValueBits: 'x' },
      { credentialType: 'PIN_CODE', hexValue: '1234', userUuid: 'nope' },
    ]) {
      const r = await create(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error, true);
    }
  });

  it('raises the created credential on the change stream of its organization', async () => {
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const r = await create({ credentialType: 'WIEGAND_H10304', hexValue: '1000100002', userUuid: org.userUuid });
    assert.equal(r.json.error, false, r.json.errorMsg);
    unsubscribe();
    const event = events.find((e) => e.entityUuid === r.json.credential.uuid);
    assert.equal(event?.entity, 'ACCESS_CONTROL_CREDENTIAL');
    assert.equal(event?.type, 'CREATE');
    assert.equal(event?.orgUuid, org.orgUuid);
    assert.deepEqual(event?.update, r.json.credential);
  });
});
