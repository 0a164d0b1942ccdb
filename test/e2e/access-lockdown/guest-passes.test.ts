import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { badge, recordChanges, FOREIGN, ok, lockdownSuite } from './fixtures.js';

const base = '/api/accesscontrol/guestpass';
const DAY = 86_400_000;

forEachDialect('/api/accesscontrol/guestpass: guest passes', (dialect) => {
  const t = lockdownSuite(dialect);
  const { call, fails } = t;
  const create = (pass: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    call(`${base}/createGuestPass`, {
      guestPass: {
        locationUuid: t.site.locations.HQ,
        doorUuids: [t.site.doors['Front Door']],
        passStartTimeMs: Date.now() - 1000,
        passEndTimeMs: Date.now() + DAY,
        ...pass,
      },
      ...extra,
    });

  it('creates a pass whose value is answered once (never on the stream), and which opens its door', async () => {
    const { result, changes } = await recordChanges(t.server, () =>
      create({ note: 'Interview', guestEmail: 'GRACE@example.com' }, { credentialValue: 'ABCDEF0123' }),
    );
    const { guestPass, credentialValue } = result;
    assert.equal(credentialValue, 'abcdef0123');
    assert.deepEqual(
      [guestPass.lifecycle, guestPass.principalType, guestPass.guestEmail, guestPass.note, guestPass.credentialValueHint, guestPass.doorUuids],
      ['ACTIVE', 'GUEST', 'grace@example.com', 'Interview', '0123', [t.site.doors['Front Door']]],
    );
    const change = changes.find((c) => c.entity === 'GUEST_PASS');
    assert.equal(change?.type, 'CREATE');
    assert.ok(!JSON.stringify(change?.update).includes('abcdef0123'), 'the value is not on the stream');
    const r = await badge(t.server, t.site.doors['Front Door'], 'ABCDEF0123');
    assert.deepEqual([r.granted, r.reason, r.credentialReceivedEvent.credentialUuid, r.unauthorizedBadge], [true, 'GRANTED', guestPass.uuid, null]);
    const generated = await create();
    assert.match(generated.credentialValue, /^[0-9a-f]{16}$/);
    assert.equal(
      await fails(`${base}/createGuestPass`, {
        guestPass: { locationUuid: t.site.locations.HQ, doorUuids: [t.site.doors['Front Door']], passStartTimeMs: 1, passEndTimeMs: 2 },
        credentialValue: 'abcdef0123',
      }),
      'The organization already has a guest pass with this value',
    );
  });

  it('finds passes by start time, a page at a time', async () => {
    const t0 = Date.UTC(2035, 0, 1);
    for (let i = 0; i < 3; i++) await create({ passStartTimeMs: t0 + i * DAY, passEndTimeMs: t0 + i * DAY + 3_600_000 });
    const page1 = await call(`${base}/findGuestPasses`, { startAfterMs: t0 - 1, maxPageSize: 2 });
    assert.deepEqual(
      page1.guestPasses.map((p: any) => p.passStartTimeMs),
      [t0, t0 + DAY],
    );
    const page2 = await call(`${base}/findGuestPasses`, { startAfterMs: t0 - 1, maxPageSize: 2, lastEvaluatedKey: page1.lastEvaluatedKey });
    assert.deepEqual([page2.guestPasses.map((p: any) => p.passStartTimeMs), page2.lastEvaluatedKey], [[t0 + 2 * DAY], null]);
    assert.equal(
      (await call(`${base}/findGuestPasses`, { startBeforeMs: t0 })).guestPasses.every((p: any) => p.passStartTimeMs < t0),
      true,
    );
    assert.match(await fails(`${base}/findGuestPasses`, { lastEvaluatedKey: 'nonsense' }), /lastEvaluatedKey/);
  });

  it('suspends, unsuspends and expires a pass (each announced), refusing a transition from the wrong state, then deletes it', async () => {
    const { guestPass } = await create();
    const step = async (name: string) => (await call(`${base}/${name}GuestPass`, { guestPassUuid: guestPass.uuid })).guestPass.lifecycle;
    assert.equal(await step('suspend'), 'SUSPENDED');
    assert.match(await fails(`${base}/suspendGuestPass`, { guestPassUuid: guestPass.uuid }), /SUSPENDED cannot be suspended/);
    assert.equal(await step('unsuspend'), 'ACTIVE');
    const { result, changes } = await recordChanges(t.server, () => step('expire'));
    assert.equal(result, 'EXPIRED');
    assert.ok(changes.some((c) => c.entity === 'GUEST_PASS' && c.type === 'UPDATE'));
    assert.match(await fails(`${base}/unsuspendGuestPass`, { guestPassUuid: guestPass.uuid }), /EXPIRED cannot be unsuspended/);
    assert.deepEqual(await call(`${base}/deleteGuestPass`, { guestPassUuid: guestPass.uuid }), { error: false });
    assert.equal(await fails(`${base}/expireGuestPass`, { guestPassUuid: guestPass.uuid }), 'Guest pass not found');
  });

  it('reads a pass past its end as EXPIRED', async () => {
    const { guestPass } = await create({ passStartTimeMs: Date.now() - 2 * DAY, passEndTimeMs: Date.now() - DAY });
    assert.equal(guestPass.lifecycle, 'EXPIRED');
  });

  it('refuses doors of another location or organization, an unknown guest, a reversed window; and never matches another organization', async () => {
    assert.match(
      await fails(`${base}/createGuestPass`, {
        guestPass: { locationUuid: t.site.locations.HQ, doorUuids: [t.site.doors['Annex Door']], passStartTimeMs: 1, passEndTimeMs: 2 },
      }),
      /not at the pass's location/,
    );
    assert.match(
      await fails(`${base}/createGuestPass`, {
        guestPass: { locationUuid: t.site.locations.HQ, doorUuids: [t.otherSite.doors['Front Door']], passStartTimeMs: 1, passEndTimeMs: 2 },
      }),
      /Door .* not found/,
    );
    assert.equal(
      await fails(`${base}/createGuestPass`, {
        guestPass: { locationUuid: t.otherSite.locations.HQ, doorUuids: [t.otherSite.doors['Front Door']], passStartTimeMs: 1, passEndTimeMs: 2 },
      }),
      'Location not found',
    );
    assert.equal(
      await fails(`${base}/createGuestPass`, {
        guestPass: {
          locationUuid: t.site.locations.HQ,
          doorUuids: [t.site.doors['Front Door']],
          passStartTimeMs: 1,
          passEndTimeMs: 2,
          guestEmail: 'nobody@example.com',
        },
      }),
      'Guest nobody@example.com not found',
    );
    assert.match(
      await fails(`${base}/createGuestPass`, {
        guestPass: { locationUuid: t.site.locations.HQ, doorUuids: [t.site.doors['Front Door']], passStartTimeMs: 2, passEndTimeMs: 1 },
      }),
      /after passStartTimeMs/,
    );
    const { credentialValue } = await create();
    assert.equal((await badge(t.server, t.otherSite.doors['Front Door'], credentialValue)).reason, 'UNKNOWN_CREDENTIAL');
    const theirs = (
      await ok(t.server, t.other.apiKey, `${base}/createGuestPass`, {
        guestPass: { locationUuid: t.otherSite.locations.HQ, doorUuids: [t.otherSite.doors['Front Door']], passStartTimeMs: 1, passEndTimeMs: 2 },
      })
    ).guestPass;
    for (const path of ['expireGuestPass', 'suspendGuestPass', 'deleteGuestPass'])
      assert.equal(await fails(`${base}/${path}`, { guestPassUuid: theirs.uuid }), 'Guest pass not found');
    assert.equal(await fails(`${base}/deleteGuestPass`, { guestPassUuid: FOREIGN }), 'Guest pass not found');
    assert.equal((await ok(t.server, t.other.apiKey, `${base}/findGuestPasses`, {})).guestPasses[0].lifecycle, 'EXPIRED', 'theirs is untouched');
  });
});
