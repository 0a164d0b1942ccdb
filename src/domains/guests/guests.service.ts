import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { findLocation } from '../devices/service.js';
import { findUser } from '../orgs/service.js';
import type { GuestActivity, GuestActivityRecord, GuestFields, GuestRecord } from './guests.model.js';
import * as store from './guests.store.js';
import type { GuestsTable } from './tables.js';
import type { LocationUsageCheck } from '../devices/locations/service.js';
import type { RecordCleaner } from '../../records/references.js';

type GuestDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export const GUEST_ENTITY = 'GUEST';
export const GUEST_ACTIVITY_ENTITY = 'GUEST_ACTIVITY';
export const GUEST_ACTIVITY_PAGE = { max: 1000 };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A guest is addressed by e-mail address, compared without case. */
function emailKey(email: string | null | undefined): string {
  const trimmed = email?.trim() ?? '';
  if (!EMAIL.test(trimmed)) throw fail('INVALID_VALUE', 'email: an e-mail address is required');
  return trimmed.toLowerCase();
}

const toGuest = (row: GuestsTable): GuestRecord => JSON.parse(row.data) as GuestRecord;

async function guestOf(source: ReadSource, orgUuid: string, email: string): Promise<GuestRecord> {
  const row = await store.findGuest(dbOf(source), orgUuid, emailKey(email));
  if (!row) throw fail('NOT_FOUND', 'Guest');
  return toGuest(row);
}

/** The organization's guests, e-mail address (lower case) to uuid (a site file seeded again finds them by e-mail). */
export async function guestUuidsByEmail(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return new Map((await store.listGuests(dbOf(source), orgUuid)).map(toGuest).map((g) => [g.email.toLowerCase(), g.uuid]));
}

/** A guest of the organization by e-mail address, or null (other services' lookup: guest passes name guests). */
export async function findGuest(source: ReadSource, orgUuid: string, email: string): Promise<GuestRecord | null> {
  const row = await store.findGuest(dbOf(source), orgUuid, email.toLowerCase());
  return row ? toGuest(row) : null;
}

/** Checks a guest's fields against the organization: its location and host are the organization's; its access window is ordered. */
async function checkFields(w: WriteScope, guest: GuestRecord): Promise<GuestRecord> {
  if (!guest.locationUuid || !(await findLocation(w, w.actor.orgUuid, guest.locationUuid))) throw fail('NOT_FOUND', 'Location');
  if (guest.hostUserUuid && !(await findUser(w, w.actor.orgUuid, guest.hostUserUuid))) throw fail('NOT_FOUND', 'Host user');
  if (guest.accessStartTimeMs != null && guest.accessEndTimeMs != null && guest.accessStartTimeMs >= guest.accessEndTimeMs)
    throw fail('INVALID_VALUE', 'guest.accessStartTimeMs must be before accessEndTimeMs');
  return guest;
}

/** The fields given, without the ones left out (undefined): an update changes only what it names. */
const given = (fields: GuestFields): GuestFields => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

async function saveGuest(w: WriteScope, guest: GuestRecord, type: 'CREATE' | 'UPDATE'): Promise<GuestRecord> {
  const checked = await checkFields(w, guest);
  const columns = { location_uuid: checked.locationUuid, data: JSON.stringify(checked) };
  if (type === 'CREATE')
    await store.insertGuest(w.tx, { uuid: checked.uuid, org_uuid: checked.orgUuid, email: checked.email, created_at_ms: w.nowMs, ...columns });
  else await store.updateGuest(w.tx, checked.orgUuid, checked.email, columns);
  w.change({ entity: GUEST_ENTITY, entityUuid: checked.uuid, type, update: checked });
  return checked;
}

/** Creates a guest (without sending an invitation): its e-mail address is new to the organization. */
/** Creates a guest in the caller's write (the site seeder's way): its e-mail address is new to the organization. */
export async function insertGuest(w: WriteScope, input: GuestFields & { email?: string | null }): Promise<GuestRecord> {
  const email = emailKey(input.email);
  if (await store.findGuest(w.tx, w.actor.orgUuid, email)) throw fail('CONFLICT', `The organization already has a guest ${email}`);
  const { email: emailCaseSensitive, ...fields } = input;
  const guest: GuestRecord = {
    ...given(fields),
    uuid: newRuuid(),
    orgUuid: w.actor.orgUuid,
    email,
    emailCaseSensitive: emailCaseSensitive!.trim(),
    locationUuid: fields.locationUuid ?? '',
    guestType: fields.guestType ?? 'GENERAL_VISITOR',
    checkedInEnum: null,
    lastCheckedInMs: null,
    lastCheckedOutMs: null,
    createdAtMs: w.nowMs,
  };
  return saveGuest(w, guest, 'CREATE');
}

/** Creates a guest (without sending an invitation). */
export async function createGuest(deps: GuestDeps, ctx: CallerContext, input: { guest: GuestFields & { email?: string | null } }): Promise<GuestRecord> {
  return write(deps, ctx, (w) => insertGuest(w, input.guest));
}

/** Records what a guest did, with the guest's visit fields, in the caller's write. */
async function recordActivity(
  w: WriteScope,
  guest: GuestRecord,
  activity: GuestActivity,
  agent: GuestActivityRecord['agent'],
  locationUuid: string,
): Promise<GuestActivityRecord> {
  const record: GuestActivityRecord = {
    activity,
    agent,
    associatedCameras: [],
    email: guest.email,
    guestType: guest.guestType,
    hostUserUuid: guest.hostUserUuid ?? null,
    locationUuid,
    orgUuid: guest.orgUuid,
    timestampMs: w.nowMs,
  };
  await store.insertActivity(w.tx, {
    org_uuid: guest.orgUuid,
    location_uuid: locationUuid,
    email: guest.email,
    timestamp_ms: w.nowMs,
    payload: JSON.stringify(record),
  });
  w.change({ entity: GUEST_ACTIVITY_ENTITY, entityUuid: guest.uuid, type: 'CREATE', update: record });
  return record;
}

/**
 * Updates a guest named by e-mail address: `guestUpdate` changes the fields it gives, `guest` replaces them all.
 * The e-mail address itself does not change. Recorded as UPDATED_INFO.
 */
export async function updateGuest(
  deps: GuestDeps,
  ctx: CallerContext,
  input: { guest?: (GuestFields & { email?: string | null }) | null; guestUpdate?: (GuestFields & { email?: string | null }) | null },
): Promise<GuestRecord> {
  const change = input.guestUpdate ?? input.guest;
  if (!change) throw fail('INVALID_VALUE', 'guestUpdate or guest: required');
  return write(deps, ctx, async (w) => {
    const current = await guestOf(w, ctx.orgUuid, change.email ?? '');
    const { email: _email, ...fields } = change;
    // A replacement keeps only the guest's identity and visits; an update keeps every field it does not give.
    const { uuid, orgUuid, email, emailCaseSensitive, checkedInEnum, lastCheckedInMs, lastCheckedOutMs, createdAtMs, locationUuid } = current;
    const identity = {
      uuid,
      orgUuid,
      email,
      emailCaseSensitive,
      checkedInEnum,
      lastCheckedInMs,
      lastCheckedOutMs,
      createdAtMs,
      locationUuid,
      guestType: current.guestType,
    };
    const kept: GuestRecord = input.guestUpdate ? current : identity;
    const updated = await saveGuest(w, { ...kept, ...given(fields) } as GuestRecord, 'UPDATE');
    await recordActivity(w, updated, 'UPDATED_INFO', 'API', updated.locationUuid);
    return updated;
  });
}

export async function getGuest(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>, input: { email?: string | null }): Promise<GuestRecord> {
  return guestOf(deps, ctx.orgUuid, input.email ?? '');
}

export async function listGuests(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>): Promise<GuestRecord[]> {
  return (await store.listGuests(deps.store.db, ctx.orgUuid)).map(toGuest);
}

/** A location where guests are expected may not be deleted: a guest needs its location (move or delete them first). */
export const guestsAtLocation: LocationUsageCheck = async (source, orgUuid, locationUuid) => {
  const guests = await store.countGuestsAt(dbOf(source), orgUuid, locationUuid);
  return guests ? `${guests} guest(s)` : null;
};

/** A deleted user is no guest's host any more (`deps.recordCleaners.user`): each guest changed is announced. */
export const guestsForgetHost: RecordCleaner = async (w, userUuid) => {
  for (const guest of (await store.listGuests(w.tx, w.actor.orgUuid)).map(toGuest)) {
    if (guest.hostUserUuid !== userUuid) continue;
    const { hostUserUuid: _host, ...updated } = guest;
    await store.updateGuest(w.tx, guest.orgUuid, guest.email, { location_uuid: guest.locationUuid, data: JSON.stringify(updated) });
    w.change({ entity: GUEST_ENTITY, entityUuid: guest.uuid, type: 'UPDATE', update: updated });
  }
};

export async function deleteGuest(deps: GuestDeps, ctx: CallerContext, input: { email?: string | null }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const guest = await guestOf(w, ctx.orgUuid, input.email ?? '');
    await store.deleteGuest(w.tx, ctx.orgUuid, guest.email);
    w.change({ entity: GUEST_ENTITY, entityUuid: guest.uuid, type: 'DELETE', update: guest });
  });
}

/**
 * Checks a guest in at a location of the organization, or out: refused while the guest is already in (out),
 * and outside the guest's access window. Recorded as CHECKED_IN / CHECKED_OUT, on the guest and in the log.
 */
async function visit(
  w: WriteScope,
  guest: GuestRecord,
  locationUuid: string,
  checkOut: boolean,
  agent: GuestActivityRecord['agent'],
): Promise<GuestActivityRecord> {
  if (!(await findLocation(w, guest.orgUuid, locationUuid))) throw fail('NOT_FOUND', 'Location');
  const inside = guest.checkedInEnum === 'CHECKED_IN';
  if (checkOut && !inside) throw fail('NOT_ALLOWED', `Guest ${guest.email} is not checked in`);
  if (!checkOut && inside) throw fail('NOT_ALLOWED', `Guest ${guest.email} is already checked in`);
  if (
    !checkOut &&
    ((guest.accessStartTimeMs != null && w.nowMs < guest.accessStartTimeMs) || (guest.accessEndTimeMs != null && w.nowMs >= guest.accessEndTimeMs))
  )
    throw fail('NOT_ALLOWED', `Guest ${guest.email} is outside the guest's access window`);
  const activity: GuestActivity = checkOut ? 'CHECKED_OUT' : 'CHECKED_IN';
  const updated: GuestRecord = { ...guest, checkedInEnum: activity, ...(checkOut ? { lastCheckedOutMs: w.nowMs } : { lastCheckedInMs: w.nowMs }) };
  await store.updateGuest(w.tx, guest.orgUuid, guest.email, { location_uuid: updated.locationUuid, data: JSON.stringify(updated) });
  w.change({ entity: GUEST_ENTITY, entityUuid: guest.uuid, type: 'UPDATE', update: updated });
  return recordActivity(w, updated, activity, agent, locationUuid);
}

export async function signGuest(
  deps: GuestDeps,
  ctx: CallerContext,
  input: { email: string; locationUuid: string },
  checkOut: boolean,
): Promise<GuestActivityRecord> {
  return write(deps, ctx, async (w) => visit(w, await guestOf(w, ctx.orgUuid, input.email), input.locationUuid, checkOut, 'API'));
}

/**
 * A guest kiosk at a location checks a guest in or out, as `gatehouse simulate guest` raises it: the guest is
 * the one expected at that location under the e-mail address, of whatever organization.
 */
export async function kioskVisit(deps: GuestDeps, input: { locationUuid: string; email: string; checkOut: boolean }): Promise<GuestActivityRecord> {
  const row = await store.findGuestAtLocation(deps.store.db, input.locationUuid, emailKey(input.email));
  if (!row) throw fail('NOT_FOUND', 'Guest expected at the location');
  return write(deps, systemActor(row.org_uuid, 'simulate.guest'), async (w) => visit(w, toGuest(row), input.locationUuid, input.checkOut, 'KIOSK'));
}

/** The organization's guest activity newest first: of a location, of a guest, or all of it; the time bounds are exclusive. */
export async function findActivities(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { locationUuid?: string | null; email?: string | null; createdAfterMs?: number | null; createdBeforeMs?: number | null },
): Promise<GuestActivityRecord[]> {
  const email = input.email != null ? (await guestOf(deps, ctx.orgUuid, input.email)).email : undefined;
  const rows = await store.listActivities(deps.store.db, ctx.orgUuid, {
    locationUuid: input.locationUuid ?? undefined,
    email,
    afterMs: input.createdAfterMs ?? undefined,
    beforeMs: input.createdBeforeMs ?? undefined,
    limit: GUEST_ACTIVITY_PAGE.max,
  });
  return rows.map((r) => JSON.parse(r.payload) as GuestActivityRecord);
}
