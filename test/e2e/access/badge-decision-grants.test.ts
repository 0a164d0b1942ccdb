import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createCredential, simulate } from './fixtures.js';
import { changesDuring, ok, seedGrantsSite, type GrantsSite } from './grants-fixtures.js';

type User = keyof GrantsSite['users'];
type Door = keyof GrantsSite['doors'];
type Schedule = keyof GrantsSite['schedules'];

/** A grant or revocation of a case, by names of the site's records. */
interface Rule {
  kind: 'grant' | 'revocation';
  name: string;
  location?: 'HQ' | 'Annex';
  users?: User[];
  groups?: string[];
  doors?: Door[];
  labels?: string[];
  schedule?: Schedule;
}

interface Case {
  what: string;
  groups?: Record<string, User[]>;
  rules: Rule[];
  badge: { user: User; door: Door; at: number };
  /** The decision: granted or the reason, and the rule reported (by name), if any. */
  expect: { reason: 'GRANTED' | 'ACCESS_REVOKED' | 'NO_ACCESS_AT_DOOR' | 'OUTSIDE_SCHEDULE'; rule?: string };
}

/** Monday 8 January 2024 at 10:00 and 08:00 in New York (EST, UTC-5). */
const MON_10_NY = Date.UTC(2024, 0, 8, 15, 0);
const MON_08_NY = Date.UTC(2024, 0, 8, 13, 0);
/** Sunday 7 January 2024, noon in New York. */
const SUN_NOON_NY = Date.UTC(2024, 0, 7, 17, 0);
/** 13:30 UTC on the Mondays around the spring change of 10 March 2024: 08:30 EST before it, 09:30 EDT after. */
const MON_1330Z_BEFORE_SPRING = Date.UTC(2024, 2, 4, 13, 30);
const MON_1330Z_AFTER_SPRING = Date.UTC(2024, 2, 11, 13, 30);
/** Sunday 3 November 2024 in New York: 01:30 EDT, 01:30 EST (the hour repeats), then 02:30 EST. */
const FALL_0130_EDT = Date.UTC(2024, 10, 3, 5, 30);
const FALL_0130_EST = Date.UTC(2024, 10, 3, 6, 30);
const FALL_0230_EST = Date.UTC(2024, 10, 3, 7, 30);
/** Monday 8 January 2024, 08:30 UTC: 09:30 in Paris, 03:30 in New York. */
const MON_0830Z = Date.UTC(2024, 0, 8, 8, 30);

const CASES: Case[] = [
  { what: 'no grant at all', rules: [], badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY }, expect: { reason: 'NO_ACCESS_AT_DOOR' } },
  {
    what: 'a location-wide grant to the user',
    rules: [{ kind: 'grant', name: 'HQ', users: ['Ada'] }],
    badge: { user: 'Ada', door: 'Lab Door', at: MON_08_NY },
    expect: { reason: 'GRANTED', rule: 'HQ' },
  },
  {
    what: 'a grant to another user',
    rules: [{ kind: 'grant', name: 'HQ', users: ['Bob'] }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'NO_ACCESS_AT_DOOR' },
  },
  {
    what: 'a grant naming the door',
    rules: [{ kind: 'grant', name: 'Front', users: ['Ada'], doors: ['Front Door'] }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'Front' },
  },
  {
    what: 'a grant naming another door of the location',
    rules: [{ kind: 'grant', name: 'Front', users: ['Ada'], doors: ['Front Door'] }],
    badge: { user: 'Ada', door: 'Lab Door', at: MON_10_NY },
    expect: { reason: 'NO_ACCESS_AT_DOOR' },
  },
  {
    what: "a grant naming one of the door's labels",
    rules: [{ kind: 'grant', name: 'Labs', users: ['Ada'], labels: ['lab'] }],
    badge: { user: 'Ada', door: 'Lab Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'Labs' },
  },
  {
    what: 'a grant naming a label the door lacks',
    rules: [{ kind: 'grant', name: 'Labs', users: ['Ada'], labels: ['lab'] }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'NO_ACCESS_AT_DOOR' },
  },
  {
    what: 'a grant at another location',
    rules: [{ kind: 'grant', name: 'Annex', location: 'Annex', users: ['Ada'] }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'NO_ACCESS_AT_DOOR' },
  },
  {
    what: 'a grant to a group the user is in',
    groups: { Staff: ['Ada', 'Bob'] },
    rules: [{ kind: 'grant', name: 'Staff', groups: ['Staff'] }],
    badge: { user: 'Bob', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'Staff' },
  },
  {
    what: 'a grant to a group the user is not in',
    groups: { Staff: ['Ada'] },
    rules: [{ kind: 'grant', name: 'Staff', groups: ['Staff'] }],
    badge: { user: 'Bob', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'NO_ACCESS_AT_DOOR' },
  },
  {
    what: 'a weekday grant inside its hours (New York wall clock)',
    rules: [{ kind: 'grant', name: 'Days', users: ['Ada'], schedule: 'Weekdays 9-17' }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'Days' },
  },
  {
    what: 'a weekday grant before its hours',
    rules: [{ kind: 'grant', name: 'Days', users: ['Ada'], schedule: 'Weekdays 9-17' }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_08_NY },
    expect: { reason: 'OUTSIDE_SCHEDULE' },
  },
  {
    what: 'a weekday grant at 13:30 UTC before the spring change (08:30 EST)',
    rules: [{ kind: 'grant', name: 'Days', users: ['Ada'], schedule: 'Weekdays 9-17' }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_1330Z_BEFORE_SPRING },
    expect: { reason: 'OUTSIDE_SCHEDULE' },
  },
  {
    what: 'a weekday grant at 13:30 UTC after the spring change (09:30 EDT)',
    rules: [{ kind: 'grant', name: 'Days', users: ['Ada'], schedule: 'Weekdays 9-17' }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_1330Z_AFTER_SPRING },
    expect: { reason: 'GRANTED', rule: 'Days' },
  },
  {
    what: 'a Sunday 01:00-02:00 grant at the first 01:30 of the autumn change (EDT)',
    rules: [{ kind: 'grant', name: 'Night', users: ['Ada'], schedule: 'Sunday 01:00-02:00' }],
    badge: { user: 'Ada', door: 'Front Door', at: FALL_0130_EDT },
    expect: { reason: 'GRANTED', rule: 'Night' },
  },
  {
    what: 'a Sunday 01:00-02:00 grant at the repeated 01:30 (EST)',
    rules: [{ kind: 'grant', name: 'Night', users: ['Ada'], schedule: 'Sunday 01:00-02:00' }],
    badge: { user: 'Ada', door: 'Front Door', at: FALL_0130_EST },
    expect: { reason: 'GRANTED', rule: 'Night' },
  },
  {
    what: 'a Sunday 01:00-02:00 grant at 02:30 EST',
    rules: [{ kind: 'grant', name: 'Night', users: ['Ada'], schedule: 'Sunday 01:00-02:00' }],
    badge: { user: 'Ada', door: 'Front Door', at: FALL_0230_EST },
    expect: { reason: 'OUTSIDE_SCHEDULE' },
  },
  {
    what: 'a weekday grant at the Paris door at 09:30 Paris time (03:30 in New York)',
    rules: [{ kind: 'grant', name: 'Paris days', location: 'Annex', users: ['Ada'], schedule: 'Weekdays 9-17' }],
    badge: { user: 'Ada', door: 'Annex Door', at: MON_0830Z },
    expect: { reason: 'GRANTED', rule: 'Paris days' },
  },
  {
    what: 'a grant and a location-wide revocation of the user',
    rules: [
      { kind: 'grant', name: 'HQ', users: ['Ada'] },
      { kind: 'revocation', name: 'Banned', users: ['Ada'] },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'ACCESS_REVOKED', rule: 'Banned' },
  },
  {
    what: "a grant and a revocation of the user's group, naming the door",
    groups: { Contractors: ['Ada'] },
    rules: [
      { kind: 'grant', name: 'HQ', users: ['Ada'] },
      { kind: 'revocation', name: 'No front', groups: ['Contractors'], doors: ['Front Door'] },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'ACCESS_REVOKED', rule: 'No front' },
  },
  {
    what: 'a grant and a revocation naming another door',
    rules: [
      { kind: 'grant', name: 'HQ', users: ['Ada'] },
      { kind: 'revocation', name: 'No lab', users: ['Ada'], doors: ['Lab Door'] },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'HQ' },
  },
  {
    what: 'a grant and a Sunday revocation, on a Monday',
    rules: [
      { kind: 'grant', name: 'HQ', users: ['Ada'] },
      { kind: 'revocation', name: 'No Sundays', users: ['Ada'], schedule: 'Sundays' },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'HQ' },
  },
  {
    what: 'a grant and a Sunday revocation, on a Sunday',
    rules: [
      { kind: 'grant', name: 'HQ', users: ['Ada'] },
      { kind: 'revocation', name: 'No Sundays', users: ['Ada'], schedule: 'Sundays' },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: SUN_NOON_NY },
    expect: { reason: 'ACCESS_REVOKED', rule: 'No Sundays' },
  },
  {
    what: 'a revocation alone',
    rules: [{ kind: 'revocation', name: 'Banned', users: ['Ada'] }],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'ACCESS_REVOKED', rule: 'Banned' },
  },
  {
    what: 'two grants: the first by name that holds at the time is reported',
    rules: [
      { kind: 'grant', name: 'A Sundays', users: ['Ada'], schedule: 'Sundays' },
      { kind: 'grant', name: 'B always', users: ['Ada'] },
    ],
    badge: { user: 'Ada', door: 'Front Door', at: MON_10_NY },
    expect: { reason: 'GRANTED', rule: 'B always' },
  },
];

forEachDialect('POST /_gatehouse/simulate/badge decided by grants, revocations and groups', (dialect) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(dialect);
  });
  after(() => server.close());

  /** A fresh organization with the site, a card per user and the case's groups and rules; answers the cards and rules. */
  async function arrange(c: Pick<Case, 'groups' | 'rules'>) {
    const org = await server.createOrg('Decision Org');
    const site = await seedGrantsSite(server, org.orgUuid);
    const cards = {} as Record<User, string>;
    for (const [i, user] of (['Ada', 'Bob', 'Cy'] as User[]).entries()) {
      cards[user] = `cafe${String(i).padStart(4, '0')}`;
      await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: cards[user], userUuid: site.users[user] });
    }
    const groups: Record<string, string> = {};
    for (const [name, members] of Object.entries(c.groups ?? {}))
      groups[name] = (await ok(server, org, 'createAccessControlGroup', { name, userUuids: members.map((u) => site.users[u]) })).group.uuid;
    const rules: Record<string, string> = {};
    for (const r of c.rules) {
      const body = {
        name: r.name,
        locationUuid: site.locations[r.location ?? 'HQ'],
        userUuids: (r.users ?? []).map((u) => site.users[u]),
        groupUuids: (r.groups ?? []).map((g) => groups[g]),
        accessControlledDoorUuids: (r.doors ?? []).map((d) => site.doors[d]),
        doorLabelIds: r.labels ?? [],
        scheduleUuid: r.schedule ? site.schedules[r.schedule] : null,
      };
      rules[r.name] =
        r.kind === 'grant'
          ? (await ok(server, org, 'createAccessGrant', { accessGrant: body })).accessGrant.uuid
          : (await ok(server, org, 'createAccessRevocation', { accessRevocation: body })).accessRevocation.uuid;
    }
    return { org, site, cards, groups, rules };
  }

  async function badge(site: GrantsSite, cards: Record<User, string>, b: Case['badge']) {
    const r = await simulate(server, 'badge', { door: site.doors[b.door], hex: cards[b.user], at: b.at });
    assert.equal(r.json.error, false, r.text);
    return r.json;
  }

  describe('one organization per case', () => {
    for (const c of CASES) {
      it(`${c.expect.reason === 'GRANTED' ? 'admits' : 'refuses'} with ${c.what}`, async () => {
        const { org, site, cards, rules } = await arrange(c);
        const r = await badge(site, cards, c.badge);
        const e = r.credentialReceivedEvent;
        const granted = c.expect.reason === 'GRANTED';
        const source = c.expect.reason === 'ACCESS_REVOKED' ? 'ACCESS_REVOCATION' : 'ACCESS_GRANT';
        const decision = (x: any) => [x.authorizationResult, x.authDecisionSource, x.accessGrantOrRevocationUuid ?? null];
        assert.deepEqual([r.granted, r.reason], [granted, c.expect.reason]);
        assert.deepEqual(decision(e), [granted ? 'ALLOWED' : 'DENIED', source, c.expect.rule ? rules[c.expect.rule] : null]);
        const locked = c.badge.door !== 'Annex Door';
        assert.equal(r.relayEvents.length, granted && locked ? 1 : 0, 'a granted badge-in opens a locked door, and only then');
        const history = await server.call(
          '/api/component/findPaginatedComponentEventsByAccessControlledDoor',
          { accessControlledDoorUuid: site.doors[c.badge.door], typeFilter: ['CredentialReceivedEvent'] },
          { key: org.apiKey },
        );
        assert.deepEqual(history.json.componentEvents.map(decision), [decision(e)], "the door's history keeps the decision");
      });
    }
  });

  it('answers the same badge at the same door differently as groups, labels, grants and revocations change, and streams the decision', async () => {
    const { org, site, cards } = await arrange({ rules: [] });
    const at = MON_10_NY;
    const front = { user: 'Ada' as const, door: 'Front Door' as const, at };
    const decide = async () => {
      const r = await badge(site, cards, front);
      return [r.reason, r.credentialReceivedEvent.accessGrantOrRevocationUuid ?? null];
    };
    assert.deepEqual(await decide(), ['NO_ACCESS_AT_DOOR', null]);
    const staff = (await ok(server, org, 'createAccessControlGroup', { name: 'Staff', userUuids: [site.users.Ada] })).group.uuid;
    const grant = (
      await ok(server, org, 'createAccessGrant', {
        accessGrant: { name: 'Vault', locationUuid: site.locations.HQ, groupUuids: [staff], doorLabelIds: ['vault'] },
      })
    ).accessGrant.uuid;
    assert.deepEqual(await decide(), ['NO_ACCESS_AT_DOOR', null], 'the door has no vault label yet');
    const label = { accessControlledDoorUuid: site.doors['Front Door'], label: 'vault' };
    assert.equal((await server.call('/api/component/addAccessControlledDoorLabel', label, { key: org.apiKey })).json.error, false);
    assert.deepEqual(await decide(), ['GRANTED', grant]);
    await ok(server, org, 'removeUsersFromAccessControlGroup', { groupUuid: staff, userUuids: [site.users.Ada] });
    assert.deepEqual(await decide(), ['NO_ACCESS_AT_DOOR', null]);
    await ok(server, org, 'addUsersToAccessControlGroup', { groupUuid: staff, userUuids: [site.users.Ada] });
    assert.deepEqual(await decide(), ['GRANTED', grant]);
    const revocation = (
      await ok(server, org, 'createAccessRevocation', { accessRevocation: { name: 'Out', locationUuid: site.locations.HQ, userUuids: [site.users.Ada] } })
    ).accessRevocation.uuid;
    assert.deepEqual(await decide(), ['ACCESS_REVOKED', revocation]);
    await ok(server, org, 'updateAccessRevocation', {
      accessRevocation: { uuid: revocation, userUuids: [site.users.Ada], accessControlledDoorUuids: [site.doors['Lab Door']] },
    });
    assert.deepEqual(await decide(), ['GRANTED', grant], 'the revocation now covers the Lab Door only');
    await ok(server, org, 'updateAccessGrant', {
      accessGrant: { uuid: grant, groupUuids: [staff], doorLabelIds: ['vault'], scheduleUuid: site.schedules.Sundays },
    });
    assert.deepEqual(await decide(), ['OUTSIDE_SCHEDULE', null]);
    await ok(server, org, 'deleteLocationAccessGrant', { accessGrantUuid: grant });
    assert.deepEqual(await decide(), ['NO_ACCESS_AT_DOOR', null]);

    const lastly = (
      await ok(server, org, 'createAccessGrant', { accessGrant: { name: 'Everyone', locationUuid: site.locations.HQ, userUuids: [site.users.Ada] } })
    ).accessGrant.uuid;
    const changes = await changesDuring(server, () => badge(site, cards, front));
    const event = changes.find((c) => c.entity === 'COMPONENT_EVENT' && (c.update as any).type === 'CredentialReceivedEvent');
    assert.deepEqual(
      [(event?.update as any)?.authDecisionSource, (event?.update as any)?.accessGrantOrRevocationUuid],
      ['ACCESS_GRANT', lastly],
      'the stream carries the decision',
    );
  });
});
