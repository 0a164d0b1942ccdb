// A badge decision (decideBadge, the whole of it: lockdown, credential, grants and revocations, schedules) in an
// organization with 1,000 grants, 100 revocations and 100 groups, beside the same decision in an organization
// with a single grant, on SQLite and (when it answers) PostgreSQL. Target: under 2 ms a decision.
// The organization's access view is cached and checked against its access version at each decision
// (grants.view.ts), so the warm figure is the steady state; the cold one is the first decision after a change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDeps, openDeps } from '../src/open-deps.js';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { loadConfig } from '../src/config.js';
import { systemActor, type Deps } from '../src/deps.js';
import { decideBadge } from '../src/domains/access/door-events/badge-decision.js';
import { findPresentedCredential, createCredential } from '../src/domains/access/credentials/service.js';
import { labelDoor } from '../src/domains/access/doors/door-labels.service.js';
import { insertRule, type AccessRuleInput } from '../src/domains/access/grants/service.js';
import { insertGroup } from '../src/domains/access/groups/service.js';
import { createDoor, findDoor, type DoorRecord } from '../src/domains/access/service.js';
import { createLocation } from '../src/domains/devices/service.js';
import { createOrg, createUsers } from '../src/domains/orgs/service.js';
import { createSchedule } from '../src/domains/schedules/service.js';
import { createLogger } from '../src/logger.js';
import { write, type WriteScope } from '../src/bus/write.js';
import { createTestDatabase, postgresProblem } from '../test/helpers/databases.js';
import { record } from './lib/results.js';

const GRANTS = 1000;
const REVOCATIONS = 100;
const GROUPS = 100;
const USERS = 500;
const DOORS = 20;
const SCHEDULES = 10;
const REPEATS = 2000;
const COLD_REPEATS = 20;
const TARGET_MS = 2;
/** Monday 8 January 2024, 10:00 in New York. */
const AT = Date.UTC(2024, 0, 8, 15, 0);

/** A deterministic sequence, so that every run builds the same organization. */
function sequence(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

interface Arranged {
  orgUuid: string;
  door: DoorRecord;
  hex: string;
}

/** An organization with the given numbers of records; the badge's holder is user 0, in four groups. */
async function arrange(deps: Deps, name: string, sizes: { grants: number; revocations: number; groups: number; users: number }): Promise<Arranged> {
  const org = await createOrg(deps, { name });
  const actor = systemActor(org.orgUuid, 'bench');
  const pick = sequence(21);
  const hex = 'c0ffee01';
  const arranged = await write(deps, actor, async (w: WriteScope) => {
    const location = await createLocation(w, { name: 'HQ', timeZone: 'America/New_York' });
    const users = (
      await createUsers(
        w,
        Array.from({ length: sizes.users }, (_, i) => ({ name: `User ${i}` })),
      )
    ).map((u) => u.uuid);
    const doors: DoorRecord[] = [];
    for (let i = 0; i < DOORS; i++) {
      const door = await createDoor(w, {
        name: `Door ${i}`,
        locationUuid: location.uuid,
        hasLock: true,
        scheduleUuid: null,
        controllerUuid: null,
        cameraUuids: [],
      });
      await labelDoor(w, door, [`zone ${i % 5}`]);
      doors.push(door);
    }
    const schedules: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const start = pick(5) * 1440 + 360;
      schedules.push(
        (
          await createSchedule(w, {
            name: `Shift ${i}`,
            times: { strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: [{ minuteOfWeekStart: start, minuteOfWeekStop: start + 720 }] },
          })
        ).uuid,
      );
    }
    const groups: string[] = [];
    for (let i = 0; i < sizes.groups; i++) {
      const members = i < 4 ? [users[0]] : [];
      for (let m = 0; m < 20; m++) members.push(users[1 + pick(users.length - 1)]);
      groups.push((await insertGroup(w, { name: `Group ${i}`, userUuids: members })).group.uuid);
    }
    const rule = (i: number): AccessRuleInput => {
      const byGroup = pick(10) < 4;
      const scope = pick(10);
      return {
        name: `Rule ${i}`,
        locationUuid: location.uuid,
        scheduleUuid: pick(2) ? schedules[pick(SCHEDULES)] : null,
        userUuids: byGroup ? [] : Array.from({ length: 1 + pick(5) }, () => users[1 + pick(users.length - 1)]),
        groupUuids: byGroup ? Array.from({ length: 1 + pick(3) }, () => groups[pick(groups.length)]) : [],
        accessControlledDoorUuids: scope >= 3 && scope < 7 ? [doors[pick(DOORS)].uuid] : [],
        doorLabelIds: scope >= 7 ? [`zone ${pick(5)}`] : [],
      };
    };
    for (let i = 0; i < sizes.grants; i++) await insertRule(w, 'GRANT', rule(i));
    for (let i = 0; i < sizes.revocations; i++)
      await insertRule(w, 'REVOCATION', { ...rule(i), groupUuids: [], userUuids: [users[1 + pick(users.length - 1)]] });
    // The holder's own grant: the decision has to find it among the others.
    const always = await createSchedule(w, {
      name: 'Always',
      times: { strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: [{ minuteOfWeekStart: 0, minuteOfWeekStop: 10080 }] },
    });
    await insertRule(w, 'GRANT', {
      name: 'Holder',
      locationUuid: location.uuid,
      scheduleUuid: always.uuid,
      groupUuids: sizes.groups ? [groups[0]] : [],
      userUuids: sizes.groups ? [] : [users[0]],
    });
    return { location, users, door: doors[0] };
  });
  await createCredential(
    deps,
    { ...actor, keyKind: 'standard', requestId: 'bench' },
    { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: arranged.users[0] },
  );
  return { orgUuid: org.orgUuid, door: (await findDoor(deps, org.orgUuid, arranged.door.uuid))!, hex };
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))];

/** Counts the statements run through a Kysely handle: what a decision costs whatever the machine's load. */
class CountQueries implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function measure(deps: Deps, a: Arranged, repeats: number, touch?: () => Promise<void>): Promise<{ median: number; p99: number; queries: number }> {
  const credential = (await findPresentedCredential(deps, a.orgUuid, null, a.hex))!;
  const counter = new CountQueries();
  const source = { store: { db: deps.store.db.withPlugin(counter) } };
  const samples: number[] = [];
  for (let r = 0; r < repeats; r++) {
    if (touch) await touch();
    const t0 = process.hrtime.bigint();
    const decision = await decideBadge(source, a.door, credential, AT);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (decision.reason !== 'GRANTED') throw new Error(`the holder was refused: ${decision.reason}`);
  }
  return { median: percentile(samples, 0.5), p99: percentile(samples, 0.99), queries: counter.count / repeats };
}

async function benchOn(label: string, databaseUrl: string, dataDir: string): Promise<void> {
  const deps = await openDeps(loadConfig({ dataDir, database: databaseUrl, seed: false }, {}), { log: createLogger('silent') });
  try {
    let t0 = Date.now();
    const big = await arrange(deps, 'Big Org', { grants: GRANTS, revocations: REVOCATIONS, groups: GROUPS, users: USERS });
    console.log(`[${label}] arranged ${GRANTS} grants, ${REVOCATIONS} revocations, ${GROUPS} groups, ${USERS} users in ${Date.now() - t0} ms`);
    const small = await arrange(deps, 'Small Org', { grants: 0, revocations: 0, groups: 0, users: 1 });
    await measure(deps, big, 50);
    await measure(deps, small, 50);
    t0 = Date.now();
    const bigWarm = await measure(deps, big, REPEATS);
    const smallWarm = await measure(deps, small, REPEATS);
    // A change of the organization's access (a label added and removed) makes the next decision rebuild the view.
    const touch = () =>
      write(deps, systemActor(big.orgUuid, 'bench'), async (w) => {
        await labelDoor(w, big.door, [`touch ${Math.random()}`]);
      });
    const bigCold = await measure(deps, big, COLD_REPEATS, touch);
    const ms = (v: number) => `${v.toFixed(3)} ms`;
    console.log(
      `[${label}] decision, 1,000 grants:  median ${ms(bigWarm.median)}, p99 ${ms(bigWarm.p99)}, ${bigWarm.queries} queries (${REPEATS} decisions; target < ${TARGET_MS} ms)`,
    );
    console.log(`[${label}] decision, 1 grant:       median ${ms(smallWarm.median)}, p99 ${ms(smallWarm.p99)}, ${smallWarm.queries} queries (baseline)`);
    console.log(`[${label}] ratio 1,000 grants / 1 grant: ${(bigWarm.median / smallWarm.median).toFixed(2)}`);
    console.log(
      `[${label}] first decision after a change (view rebuilt): median ${ms(bigCold.median)}, p99 ${ms(bigCold.p99)}, ${bigCold.queries} queries (${COLD_REPEATS} changes)`,
    );
    record(
      `badge decision with 1,000 grants (median), ${label}`,
      `${ms(bigWarm.median)} (p99 ${ms(bigWarm.p99)}; with 1 grant ${ms(smallWarm.median)})`,
      `< ${TARGET_MS} ms`,
      bigWarm.median < TARGET_MS,
    );
  } finally {
    await closeDeps(deps);
  }
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-badge-'));
  try {
    await benchOn('sqlite', `sqlite:${join(dataDir, 'gatehouse.db')}`, dataDir);
    if ((await postgresProblem()) === null) {
      const database = await createTestDatabase('postgres');
      try {
        await benchOn('postgres', database.url, dataDir);
      } finally {
        await database.drop();
      }
    } else console.log('[postgres] not reachable: skipped');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
