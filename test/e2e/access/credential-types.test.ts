import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { createCredential, simulate } from './fixtures.js';
import { changesDuring, ok, refused, startGrantsBed, type GrantsSite } from './grants-fixtures.js';

/** Each creator with fields, and the credential they must make (H10301 10:1093 is a reader manual's worked example). */
const CREATORS: Array<{ operation: string; body: Record<string, unknown>; type: string; value: string; hex: string }> = [
  { operation: 'createWiegandH10301Credential', body: { facilityCode: 10, cardNumber: 1093 }, type: 'WIEGAND_H10301', value: '10:1093', hex: '014088b' },
  { operation: 'createWiegandH10304Credential', body: { facilityCode: 77, cardNumber: 12345 }, type: 'WIEGAND_H10304', value: '77:12345', hex: '0004d06073' },
  { operation: 'createWiegandD10202Credential', body: { facilityCode: 77, cardNumber: 12345 }, type: 'WIEGAND_D10202', value: '77:12345', hex: '09a006073' },
  {
    operation: 'create35BitCorp1000StdCredential',
    body: { companyId: 77, cardNumber: 12345 },
    type: 'HID_CORP1000_STD_35',
    value: '77:12345',
    hex: '409a06072',
  },
  { operation: 'create48BitCorp1000StdCredential', body: { companyId: 78, cardNumber: 12345 }, type: 'HID_CORP1000_STD_48', value: '78:12345', hex: '' },
  {
    operation: 'createWiegand64BitRawCredential',
    body: { value: '18446744073709551615' },
    type: 'WIEGAND_64BIT_RAW',
    value: '18446744073709551615',
    hex: 'ffffffffffffffff',
  },
  { operation: 'createStandardCsnCredential', body: { credentialValue: '04A1B2C3' }, type: 'STANDARD_CSN', value: '04a1b2c3', hex: '04a1b2c3' },
  {
    operation: 'createRhombusSecureCsnCredential',
    body: { credentialValue: '04a1b2c3d4e5f6' },
    type: 'RHOMBUS_SECURE_CSN',
    value: '04a1b2c3d4e5f6',
    hex: '04a1b2c3d4e5f6',
  },
  {
    operation: 'createWiegandCredential',
    body: { wiegandFormat: 'H10301', siteCode: 11, cardNumber: 1093 },
    type: 'WIEGAND_H10301',
    value: '11:1093',
    hex: '',
  },
  {
    operation: 'createWiegandCredential',
    body: { wiegandFormat: 'HID_CORP1000_STD_35', companyId: 99, cardNumber: 1 },
    type: 'HID_CORP1000_STD_35',
    value: '99:1',
    hex: '',
  },
  { operation: 'createWiegandCredential', body: { wiegandFormat: 'CUSTOM', value: '4660' }, type: 'CUSTOM', value: '1234', hex: '1234' },
];

forEachDialect('type-specific credential operations', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: GrantsSite;
  let otherSite: GrantsSite;
  before(async () => {
    ({ server, org, other, site, otherSite } = await startGrantsBed(dialect, 'Types Org'));
  });
  after(() => server.close());

  describe('the creators (createWiegandH10301Credential ... createWiegandCredential)', () => {
    for (const c of CREATORS) {
      it(`${c.operation} ${JSON.stringify(c.body)} creates a ${c.type} credential ${c.value}, announced, that opens a door`, async () => {
        let credential: any;
        const changes = await changesDuring(server, async () => {
          credential = (await ok(server, org, c.operation, { ...c.body, userUuid: site.users.Ada, startDateEpochSecInclusive: 1_700_000_000 })).credential;
        });
        assert.deepEqual(
          [credential.type, credential.value, credential.workflowStatus, credential.userUuid, credential.startDateEpochSecInclusive],
          [c.type, c.value, 'ACTIVE', site.users.Ada, 1_700_000_000],
        );
        if (c.hex) assert.equal(credential.lowercaseHexValue, c.hex);
        assert.deepEqual(
          changes.filter((x) => x.entity === 'ACCESS_CONTROL_CREDENTIAL').map((x) => [x.type, x.entityUuid]),
          [['CREATE', credential.uuid]],
          '(relocks of earlier cases may be announced meanwhile)',
        );
        await ok(server, org, 'createAccessGrant', {
          accessGrant: { name: `HQ ${credential.uuid}`, locationUuid: site.locations.HQ, userUuids: [site.users.Ada] },
        });
        const badge = await simulate(server, 'badge', { door: site.doors['Front Door'], hex: credential.lowercaseHexValue, type: c.type });
        assert.deepEqual([badge.json.reason, badge.json.credentialReceivedEvent.credentialUuid], ['GRANTED', credential.uuid]);
        // The value is taken now: creating it again is refused.
        await refused(server, org, c.operation, c.body, /already has a credential with this value/);
      });
    }

    it('refuses values that do not fit the format, a missing field, and another organization’s user, naming the problem', async () => {
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        ['createWiegandH10301Credential', { facilityCode: 256, cardNumber: 1 }, /^WIEGAND_H10301: the facility code is 8 bits \(0-255\), not 256$/],
        ['createWiegandH10301Credential', { facilityCode: 1, cardNumber: 65536 }, /^WIEGAND_H10301: the card number is 16 bits \(0-65535\), not 65536$/],
        ['createWiegandH10301Credential', { cardNumber: 1 }, /^facilityCode: is required$/],
        ['create35BitCorp1000StdCredential', { companyId: 1 }, /^cardNumber: is required$/],
        ['createWiegand64BitRawCredential', { value: '18446744073709551616' }, /^value: more than 64 bits$/],
        ['createWiegand64BitRawCredential', { value: '12ab' }, /^value: must be a decimal number$/],
        ['createStandardCsnCredential', { credentialValue: '123' }, /^hexValue: a STANDARD_CSN value is a card serial number of 4, 7, 8, 10 bytes/],
        ['createWiegandH10301Credential', { facilityCode: 1, cardNumber: 2, userUuid: otherSite.users.Ada }, /^User not found$/],
      ];
      for (const [operation, body, pattern] of cases) await refused(server, org, operation, body, pattern);
    });
  });

  describe('the window updates (updateStandardCsnCredential, updateRhombusSecureCsnCredential, updateRhombusSecureMobileCredential, updateWiegandCredential)', () => {
    it('replaces the validity window of a credential of its type, announced, which the badge decision then follows', async () => {
      const credential = (await ok(server, org, 'createStandardCsnCredential', { credentialValue: 'aabbccdd', userUuid: site.users.Bob })).credential;
      let updated: any;
      const changes = await changesDuring(server, async () => {
        const body = { credentialUuid: credential.uuid, startDateEpochSecInclusive: 100, endDateEpochSecExclusive: 200 };
        updated = (await ok(server, org, 'updateStandardCsnCredential', body)).credential;
      });
      assert.deepEqual(
        changes.filter((c) => c.entity === 'ACCESS_CONTROL_CREDENTIAL').map((c) => [c.type, c.update]),
        [['UPDATE', updated]],
      );
      assert.deepEqual([updated.startDateEpochSecInclusive, updated.endDateEpochSecExclusive, updated.value], [100, 200, 'aabbccdd']);
      await ok(server, org, 'createAccessGrant', { accessGrant: { name: 'Bob HQ', locationUuid: site.locations.HQ, userUuids: [site.users.Bob] } });
      assert.equal((await simulate(server, 'badge', { door: site.doors['Front Door'], hex: 'aabbccdd' })).json.reason, 'CREDENTIAL_EXPIRED');
      const reopened = (await ok(server, org, 'updateStandardCsnCredential', { credentialUuid: credential.uuid, startDateEpochSecInclusive: 100 })).credential;
      assert.deepEqual([reopened.startDateEpochSecInclusive, reopened.endDateEpochSecExclusive], [100, null], 'a bound left out is removed');
      assert.equal((await simulate(server, 'badge', { door: site.doors['Front Door'], hex: 'aabbccdd' })).json.reason, 'GRANTED');
    });

    it('refuses a credential of another type, a window that ends before it starts, and another organization’s credential', async () => {
      const wiegand = (await ok(server, org, 'createWiegandH10301Credential', { facilityCode: 3, cardNumber: 3 })).credential;
      const mobile = await createCredential(server, org.apiKey, { credentialType: 'PLATFORM_SECURE_MOBILE', hexValue: '0102030405' });
      await refused(
        server,
        org,
        'updateStandardCsnCredential',
        { credentialUuid: wiegand.uuid },
        /^credentialUuid: the credential is a WIEGAND_H10301 credential, not a STANDARD_CSN one$/,
      );
      assert.equal(
        (await ok(server, org, 'updateWiegandCredential', { credentialUuid: wiegand.uuid, endDateEpochSecExclusive: 5 })).credential.endDateEpochSecExclusive,
        5,
      );
      assert.equal(
        (await ok(server, org, 'updateRhombusSecureMobileCredential', { credentialUuid: mobile.uuid, startDateEpochSecInclusive: 7 })).credential
          .startDateEpochSecInclusive,
        7,
      );
      await refused(server, org, 'updateRhombusSecureCsnCredential', { credentialUuid: mobile.uuid }, /is a PLATFORM_SECURE_MOBILE credential/);
      await refused(
        server,
        org,
        'updateWiegandCredential',
        { credentialUuid: wiegand.uuid, startDateEpochSecInclusive: 10, endDateEpochSecExclusive: 10 },
        /^startDateEpochSecInclusive must be before endDateEpochSecExclusive$/,
      );
      const theirs = (await ok(server, other, 'createWiegandH10301Credential', { facilityCode: 3, cardNumber: 3 })).credential;
      await refused(server, org, 'updateWiegandCredential', { credentialUuid: theirs.uuid, endDateEpochSecExclusive: 5 }, /^Credential not found$/);
      assert.equal(
        (await ok(server, other, 'findAccessControlCredentialByOrg', {})).credentials.find((c: any) => c.uuid === theirs.uuid).endDateEpochSecExclusive,
        null,
      );
    });
  });

  describe('the detail reads (getStandardCsnCredentialDetails, getRhombusSecureCsnCredentialDetails)', () => {
    it('answers a credential of its type; refuses another type and another organization’s credential', async () => {
      const csn = (await ok(server, org, 'createStandardCsnCredential', { credentialValue: '0a0b0c0d' })).credential;
      const secure = (await ok(server, org, 'createRhombusSecureCsnCredential', { credentialValue: '0a0b0c0d0e0f01' })).credential;
      assert.deepEqual((await ok(server, org, 'getStandardCsnCredentialDetails', { credentialUuid: csn.uuid })).credential, csn);
      assert.deepEqual((await ok(server, org, 'getRhombusSecureCsnCredentialDetails', { credentialUuid: secure.uuid })).credential, secure);
      await refused(
        server,
        org,
        'getStandardCsnCredentialDetails',
        { credentialUuid: secure.uuid },
        /is a PLATFORM_SECURE_CSN credential, not a STANDARD_CSN one/,
      );
      await refused(server, other, 'getStandardCsnCredentialDetails', { credentialUuid: csn.uuid }, /^Credential not found$/);
    });
  });
});
