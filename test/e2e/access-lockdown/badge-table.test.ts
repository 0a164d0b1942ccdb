import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { badge, card, ok, seedLockdownSite, type LockdownSite } from './fixtures.js';

/** Local New York times of March 2025, as instants: daylight saving starts on Sunday the 9th at 02:00. */
const at = (day: number, hourUtc: number, minuteUtc = 0) => Date.UTC(2025, 2, day, hourUtc, minuteUtc);

type Door = keyof LockdownSite['doors'];
type Who = 'Ada' | 'Bob' | 'Gus' | 'dayPass' | 'nowPass';
interface Row {
  what: string;
  door: Door;
  who: Who;
  at?: number;
  /** granted, reason, authDecisionSource */
  expect: [boolean, string, string];
}
interface Phase {
  name: string;
  /** Changes the organization's state before the rows are decided. */
  setup?: (t: Tools) => Promise<void>;
  rows: Row[];
}
interface Tools {
  call: (path: string, body: unknown) => Promise<any>;
  site: LockdownSite;
  passes: Record<string, string>;
}

const exception = (body: Record<string, unknown>) => (t: Tools) =>
  t
    .call('/api/accesscontrol/doorScheduleException/createExceptionV2', { exception: { doorUuids: [t.site.doors['Lobby Door']], ...body } })
    .then(() => undefined);
const transition = (name: string) => (t: Tools) =>
  t.call(`/api/accesscontrol/guestpass/${name}GuestPass`, { guestPassUuid: t.passes.nowPass }).then(() => undefined);
const lockdown = (name: 'activate' | 'deactivate', plan?: 'Standard' | 'Drill') => (t: Tools) =>
  t
    .call(`/api/accesscontrol/lockdownPlan/${name}LockdownForLocation`, {
      locationUuid: t.site.locations.HQ,
      ...(plan ? { lockdownPlanUuids: [t.site.lockdownPlans[plan]] } : {}),
    })
    .then((r) => assert.equal(r.result, 'SUCCESS'));

const PHASES: Phase[] = [
  {
    name: "the Lobby Door's UNLOCKED schedule, on New York's wall clock across the change to daylight time",
    rows: [
      {
        what: 'Monday 3rd 08:30 EST: before hours, Bob has no access',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(3, 13, 30),
        expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'],
      },
      { what: 'Monday 3rd 09:30 EST: the door stands unlocked', door: 'Lobby Door', who: 'Bob', at: at(3, 14, 30), expect: [true, 'DOOR_UNLOCKED', 'CONFIG'] },
      {
        what: 'Monday 10th 09:30 EDT (13:30 UTC, which was 08:30 a week before)',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(10, 13, 30),
        expect: [true, 'DOOR_UNLOCKED', 'CONFIG'],
      },
      { what: 'Monday 10th 08:30 EDT', door: 'Lobby Door', who: 'Bob', at: at(10, 12, 30), expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'] },
      { what: 'Ada has access at any hour', door: 'Lobby Door', who: 'Ada', at: at(10, 12, 30), expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
    ],
  },
  {
    name: 'schedule exceptions: an event on the Sunday of the change, a holiday the Monday after',
    setup: async (t) => {
      await exception({
        name: 'Open House',
        localStartDate: '2025-03-09',
        localEndDate: '2025-03-09',
        intervals: [{ localStartDateTime: '2025-03-09T10:00', localEndDateTime: '2025-03-09T14:00', state: 'UNLOCKED' }],
      })(t);
      await exception({ name: 'Holiday', localStartDate: '2025-03-17', localEndDate: '2025-03-17', defaultState: 'ACCESS_CONTROLLED' })(t);
    },
    rows: [
      {
        what: 'Sunday 9th 09:30 EDT, before the event',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(9, 13, 30),
        expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'],
      },
      {
        what: 'Sunday 9th 10:05 EDT (14:05 UTC, 09:05 on standard time): the event unlocks it',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(9, 14, 5),
        expect: [true, 'DOOR_UNLOCKED', 'CONFIG'],
      },
      {
        what: 'Sunday 9th 14:30 EDT, after the event',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(9, 18, 30),
        expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'],
      },
      {
        what: 'Monday 17th 09:30 EDT, the holiday keeps it locked',
        door: 'Lobby Door',
        who: 'Bob',
        at: at(17, 13, 30),
        expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'],
      },
      { what: 'the holiday still admits Ada, who has access', door: 'Lobby Door', who: 'Ada', at: at(17, 13, 30), expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
      { what: 'Tuesday 18th 09:30 EDT, after the holiday', door: 'Lobby Door', who: 'Bob', at: at(18, 13, 30), expect: [true, 'DOOR_UNLOCKED', 'CONFIG'] },
    ],
  },
  {
    name: 'a guest pass for the Front Door on Monday 10th, 09:00 to 17:00 EDT',
    rows: [
      { what: 'before it starts', door: 'Front Door', who: 'dayPass', at: at(10, 12, 59), expect: [false, 'CREDENTIAL_NOT_YET_VALID', 'CONFIG'] },
      { what: 'at its door inside its window', door: 'Front Door', who: 'dayPass', at: at(10, 13), expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
      { what: 'at a door it does not name', door: 'Vault Door', who: 'dayPass', at: at(10, 14), expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'] },
      { what: 'at a door that stands unlocked', door: 'Lobby Door', who: 'dayPass', at: at(10, 14), expect: [true, 'DOOR_UNLOCKED', 'CONFIG'] },
      { what: 'at its end (exclusive)', door: 'Front Door', who: 'dayPass', at: at(10, 21), expect: [false, 'CREDENTIAL_EXPIRED', 'CONFIG'] },
    ],
  },
  {
    name: 'HQ locked down with the Standard plan (now)',
    setup: lockdown('activate', 'Standard'),
    rows: [
      { what: 'Ada is refused', door: 'Front Door', who: 'Ada', expect: [false, 'LOCATION_LOCKED_DOWN', 'LOCKDOWN'] },
      { what: 'Gus, exempt, is admitted', door: 'Front Door', who: 'Gus', expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
      { what: 'a guest pass is refused', door: 'Front Door', who: 'nowPass', expect: [false, 'LOCATION_LOCKED_DOWN', 'LOCKDOWN'] },
      { what: 'the plan keeps the Stair Door unlocked', door: 'Stair Door', who: 'Bob', expect: [true, 'DOOR_UNLOCKED', 'CONFIG'] },
      { what: 'another location is not locked down', door: 'Annex Door', who: 'Ada', expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
    ],
  },
  {
    name: 'the lockdown deactivated',
    setup: lockdown('deactivate'),
    rows: [
      { what: 'Ada is admitted again', door: 'Front Door', who: 'Ada', expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
      { what: 'and the guest pass', door: 'Front Door', who: 'nowPass', expect: [true, 'GRANTED', 'ACCESS_GRANT'] },
      { what: 'the Stair Door is access controlled again', door: 'Stair Door', who: 'Bob', expect: [false, 'NO_ACCESS_AT_DOOR', 'ACCESS_GRANT'] },
    ],
  },
  {
    name: 'the current pass suspended',
    setup: transition('suspend'),
    rows: [{ what: 'inside its window', door: 'Front Door', who: 'nowPass', expect: [false, 'CREDENTIAL_SUSPENDED', 'CONFIG'] }],
  },
  {
    name: 'the current pass unsuspended',
    setup: transition('unsuspend'),
    rows: [{ what: 'inside its window', door: 'Front Door', who: 'nowPass', expect: [true, 'GRANTED', 'ACCESS_GRANT'] }],
  },
  {
    name: 'the current pass expired (revoked)',
    setup: transition('expire'),
    rows: [{ what: 'inside its window', door: 'Front Door', who: 'nowPass', expect: [false, 'CREDENTIAL_EXPIRED', 'CONFIG'] }],
  },
  {
    name: "a drill in test mode (the Drill plan's test plan overrides nothing)",
    setup: async (t) => {
      await t.call('/api/accesscontrol/lockdownPlan/enableLockdownTestModeForLocation', { locationUuid: t.site.locations.HQ });
      await lockdown('activate', 'Drill')(t);
    },
    rows: [{ what: 'Ada is admitted', door: 'Front Door', who: 'Ada', expect: [true, 'GRANTED', 'ACCESS_GRANT'] }],
  },
];

forEachDialect('POST /_gatehouse/simulate/badge: badge-ins across lockdowns, schedule exceptions and guest passes', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let tools: Tools;
  const hexes: Partial<Record<Who, string>> = { Ada: 'a0a0a0a0', Bob: 'b0b0b0b0', Gus: 'c0c0c0c0' };
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Table Org');
    const site = await seedLockdownSite(server, org.orgUuid);
    for (const who of ['Ada', 'Bob', 'Gus'] as const) await card(server, org.apiKey, site.users[who], hexes[who]!);
    tools = { call: (path, body) => ok(server, org.apiKey, path, body), site, passes: {} };
    const now = Date.now();
    for (const [name, start, end] of [
      ['dayPass', at(10, 13), at(10, 21)],
      ['nowPass', now - 3_600_000, now + 86_400_000],
    ] as const) {
      const r = await tools.call('/api/accesscontrol/guestpass/createGuestPass', {
        guestPass: {
          locationUuid: site.locations.HQ,
          doorUuids: [site.doors['Front Door']],
          passStartTimeMs: start,
          passEndTimeMs: end,
          guestEmail: 'grace@example.com',
        },
      });
      tools.passes[name] = r.guestPass.uuid;
      hexes[name] = r.credentialValue;
    }
  });
  after(() => server.close());

  for (const phase of PHASES) {
    it(`decides ${phase.name}`, async () => {
      await phase.setup?.(tools);
      for (const row of phase.rows) {
        const r = await badge(server, tools.site.doors[row.door], hexes[row.who]!, row.at);
        const e = r.credentialReceivedEvent;
        assert.deepEqual([r.granted, r.reason, e.authDecisionSource], row.expect, `${row.what} (${row.who} at ${row.door})`);
        assert.equal(e.authorizationResult, row.expect[0] ? 'ALLOWED' : row.expect[2] === 'CONFIG' && !row.expect[0] ? 'DISABLED' : 'DENIED', row.what);
        if (row.who.endsWith('Pass')) assert.equal(e.credentialUuid, tools.passes[row.who], 'the event names the pass');
        if (row.expect[2] === 'LOCKDOWN') assert.equal(e.activeDoorLockdownState, 'LOCKED_DOWN');
      }
    });
  }
});
