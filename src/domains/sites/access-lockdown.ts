import { Type, type Static } from 'typebox';
import type { WriteScope } from '../../bus/write.js';
import { applyDoorState } from '../access/doors/door-state.js';
import { insertException } from '../access/exceptions/service.js';
import { isLocalDate } from '../schedules/local-time.js';
import { lockdownPlans, newPlan } from '../access/lockdowns/lockdown-plans.js';
import { DOOR_LOCKDOWN_STATES } from '../access/lockdowns/model.js';
import { findDoor } from '../access/service.js';
import { insertGuest } from '../guests/guests.service.js';
import { GUEST_TYPES } from '../guests/guests.model.js';

/**
 * The site file's lockdown plans, door schedule exceptions and guests (issue 21), and the state fields of its
 * doors: their entries, their checks and their creation, kept here so that the site files' own modules only
 * list them. Entries name each other as the rest of the file does.
 */
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Entry = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });
const oneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const DoorState = oneOf(['UNLOCKED', 'ACCESS_CONTROLLED'] as const);

/** More fields of a `doors` entry: its default state and the schedules of its states. */
export const siteDoorStateFields = {
  defaultState: Type.Optional(DoorState),
  unlockedSchedule: Type.Optional(Name),
  controlledSchedule: Type.Optional(Name),
};

export const SiteLockdownPlan = Entry({
  name: Name,
  location: Name,
  defaultLockdownState: Type.Optional(oneOf(DOOR_LOCKDOWN_STATES)),
  /** Door name to its state while the plan is active. */
  doors: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 200 }), oneOf(DOOR_LOCKDOWN_STATES))),
  /** Users who keep physical access while it is active. */
  exemptUsers: Type.Optional(Type.Array(Name)),
  testPlan: Type.Optional(Entry({ doorStateOverrideEnabled: Type.Optional(Type.Boolean()), userAccessOverrideEnabled: Type.Optional(Type.Boolean()) })),
});

export const SiteDoorScheduleException = Entry({
  name: Name,
  doors: Type.Array(Name, { minItems: 1 }),
  /** YYYY-MM-DD, inclusive both, on the wall clock of the doors' location. */
  startDate: Type.String(),
  endDate: Type.String(),
  defaultState: Type.Optional(DoorState),
  intervals: Type.Optional(Type.Array(Entry({ start: Type.String(), end: Type.String(), state: DoorState }))),
});

export const SiteGuest = Entry({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  location: Name,
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
  companyName: Type.Optional(Name),
  host: Type.Optional(Name),
  guestType: Type.Optional(oneOf(GUEST_TYPES)),
});

export const accessLockdownKinds = {
  lockdownPlans: Type.Optional(Type.Array(SiteLockdownPlan)),
  doorScheduleExceptions: Type.Optional(Type.Array(SiteDoorScheduleException)),
  guests: Type.Optional(Type.Array(SiteGuest)),
};

/** The uuid of an entry that the store already holds (src/domains/sites/existing.ts), of this module's kinds. */
type Kept = (kind: keyof typeof accessLockdownKinds, key: string) => string | undefined;

type Plan = Static<typeof SiteLockdownPlan>;
type Exception = Static<typeof SiteDoorScheduleException>;
type Guest = Static<typeof SiteGuest>;
type DoorStateFields = { name: string; defaultState?: string; unlockedSchedule?: string; controlledSchedule?: string };
export interface AccessLockdownSite {
  doors?: DoorStateFields[];
  lockdownPlans?: Plan[];
  doorScheduleExceptions?: Exception[];
  guests?: Guest[];
}

type Refer = (where: string, kind: 'locations' | 'doors' | 'users' | 'schedules', singular: string, name: string | undefined) => void;

/** The references and values of these entries that the schema alone does not check. */
export function accessLockdownProblems(site: AccessLockdownSite, refer: Refer, problems: string[]): void {
  site.doors?.forEach((d, i) => {
    refer(`doors[${i}].unlockedSchedule (${d.name})`, 'schedules', 'schedule', d.unlockedSchedule);
    refer(`doors[${i}].controlledSchedule (${d.name})`, 'schedules', 'schedule', d.controlledSchedule);
  });
  site.lockdownPlans?.forEach((p, i) => {
    const at = (field: string) => `lockdownPlans[${i}]${field} (${p.name})`;
    refer(at('.location'), 'locations', 'location', p.location);
    Object.keys(p.doors ?? {}).forEach((door) => refer(at(`.doors.${door}`), 'doors', 'door', door));
    p.exemptUsers?.forEach((u, k) => refer(at(`.exemptUsers[${k}]`), 'users', 'user', u));
  });
  site.doorScheduleExceptions?.forEach((e, i) => {
    const at = (field: string) => `doorScheduleExceptions[${i}]${field} (${e.name})`;
    e.doors.forEach((door, k) => refer(at(`.doors[${k}]`), 'doors', 'door', door));
    for (const field of ['startDate', 'endDate'] as const)
      if (!isLocalDate(e[field])) problems.push(`${at(`.${field}`)}: "${e[field]}" is not a date YYYY-MM-DD`);
  });
  site.guests?.forEach((g, i) => {
    refer(`guests[${i}].location (${g.email})`, 'locations', 'location', g.location);
    refer(`guests[${i}].host (${g.email})`, 'users', 'user', g.host);
  });
}

type UuidOf = (kind: 'locations' | 'doors' | 'users' | 'schedules', name: string) => string;

/** Creates the entries, in the seed's write, once the locations, users, schedules and doors exist; answers their uuids by key. */
export async function createAccessLockdownEntries(
  w: WriteScope,
  site: AccessLockdownSite,
  uuidOf: UuidOf,
  kept: Kept,
): Promise<Record<string, Record<string, string>>> {
  const created: Record<string, Record<string, string>> = {};
  // Doors with a state of their own take it now (a door whose default is UNLOCKED opens).
  for (const d of site.doors ?? []) {
    if (d.defaultState === undefined && d.unlockedSchedule === undefined && d.controlledSchedule === undefined) continue;
    await applyDoorState(w, (await findDoor(w, w.actor.orgUuid, uuidOf('doors', d.name)))!);
  }
  for (const p of site.lockdownPlans ?? []) {
    if (kept('lockdownPlans', p.name)) {
      (created.lockdownPlans ??= {})[p.name] = kept('lockdownPlans', p.name)!;
      continue;
    }
    const plan = newPlan(w.actor.orgUuid, {
      name: p.name,
      locationUuid: uuidOf('locations', p.location),
      defaultLockdownState: p.defaultLockdownState ?? null,
      doorLockdownStateMap: Object.fromEntries(Object.entries(p.doors ?? {}).map(([door, state]) => [uuidOf('doors', door), state])),
      physicalAccess: { userUuids: (p.exemptUsers ?? []).map((u) => uuidOf('users', u)) },
      testPlan: p.testPlan,
    });
    (created.lockdownPlans ??= {})[p.name] = (await lockdownPlans.insert(w, plan)).uuid;
  }
  for (const e of site.doorScheduleExceptions ?? []) {
    if (kept('doorScheduleExceptions', e.name)) {
      (created.doorScheduleExceptions ??= {})[e.name] = kept('doorScheduleExceptions', e.name)!;
      continue;
    }
    const exception = await insertException(w, {
      name: e.name,
      doorUuids: e.doors.map((d) => uuidOf('doors', d)),
      localStartDate: e.startDate,
      localEndDate: e.endDate,
      defaultState: e.defaultState,
      intervals: e.intervals?.map((x) => ({ localStartDateTime: x.start, localEndDateTime: x.end, state: x.state })),
    });
    (created.doorScheduleExceptions ??= {})[e.name] = exception.uuid;
  }
  for (const g of site.guests ?? []) {
    if (kept('guests', g.email.toLowerCase())) {
      (created.guests ??= {})[g.email] = kept('guests', g.email.toLowerCase())!;
      continue;
    }
    const guest = await insertGuest(w, {
      email: g.email,
      locationUuid: uuidOf('locations', g.location),
      hostUserUuid: g.host === undefined ? undefined : uuidOf('users', g.host),
      firstName: g.firstName,
      lastName: g.lastName,
      companyName: g.companyName,
      guestType: g.guestType,
    });
    (created.guests ??= {})[g.email] = guest.uuid;
  }
  return created;
}
