import { createHash, randomBytes } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findGuest } from '../../guests/guests.service.js';
import type { GuestPassesTable } from '../access-lockdown.tables.js';
import { badgeConditionsAt, doorStandsUnlocked, lockdownRefuses } from '../door-events/badge-conditions.js';
import type { BadgeDecision, BadgeReason } from '../door-events/badge-decision.js';
import { lifecycleAt, type GuestPassLifecycle, type GuestPassRecord } from './model.js';
import * as store from './store.js';
import type { RecordCleaner } from '../../../records/references.js';
import { decodePageKey, pageOf } from '../../../store/page-key.js';
import { findDoors, type DoorRecord } from '../service.js';

type PassDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;

export const GUEST_PASS_ENTITY = 'GUEST_PASS';
export const GUEST_PASS_PAGE = { default: 100, max: 1000 };
const MAX_PASS_MS = 366 * 86_400_000;

const digestOf = (orgUuid: string, value: string) => createHash('sha256').update(`${orgUuid}:${value.toLowerCase()}`, 'utf8').digest('hex');
const sealIdentity = (orgUuid: string, uuid: string) => `guest-pass:${orgUuid}:${uuid}`;

/** A pass as answered: its lifecycle as it reads now (a pass past its end reads EXPIRED). */
function toRecord(row: GuestPassesTable, nowMs: number): GuestPassRecord {
  const record = JSON.parse(row.data) as GuestPassRecord;
  return { ...record, lifecycle: lifecycleAt({ lifecycle: row.lifecycle, passEndTimeMs: Number(row.pass_end_ms) }, nowMs) };
}

export interface NewGuestPass {
  locationUuid: string;
  doorUuids: string[];
  passStartTimeMs: number;
  passEndTimeMs: number;
  note?: string | null;
  guestEmail?: string | null;
}

/**
 * Creates a guest pass for doors of one location. Its value (hex digits) is the caller's or generated, and is
 * answered this once: it is kept sealed, and matched by digest when presented at a reader.
 */
export async function createGuestPass(
  deps: PassDeps,
  ctx: CallerContext,
  input: { guestPass: NewGuestPass; credentialValue?: string | null },
): Promise<{ guestPass: GuestPassRecord; credentialValue: string }> {
  const p = input.guestPass;
  if (p.passEndTimeMs <= p.passStartTimeMs) throw fail('INVALID_VALUE', 'guestPass.passEndTimeMs must be after passStartTimeMs');
  if (p.passEndTimeMs - p.passStartTimeMs > MAX_PASS_MS) throw fail('INVALID_VALUE', 'guestPass: a pass lasts at most 366 days');
  const value = (input.credentialValue ?? randomBytes(8).toString('hex')).toLowerCase();
  return write(deps, ctx, async (w) => {
    // The location and the doors are the organization's (resolved at the edge); each door must stand at the location.
    const doorUuids = [...new Set(p.doorUuids)];
    const doors = await findDoors(w, ctx.orgUuid, doorUuids);
    const elsewhere = doors.find((d) => d.locationUuid !== p.locationUuid);
    if (elsewhere) throw fail('INVALID_VALUE', `guestPass.doorUuids: door ${elsewhere.name} is not at the pass's location`);
    const guestEmail = p.guestEmail?.trim().toLowerCase() || null;
    if (guestEmail && !(await findGuest(w, ctx.orgUuid, guestEmail))) throw fail('NOT_FOUND', `Guest ${guestEmail}`);
    const digest = digestOf(ctx.orgUuid, value);
    if (await store.findPassByDigest(w.tx, ctx.orgUuid, digest)) throw fail('CONFLICT', 'The organization already has a guest pass with this value');
    const uuid = newRuuid();
    const record: GuestPassRecord = {
      uuid,
      orgUuid: ctx.orgUuid,
      locationUuid: p.locationUuid,
      doorUuids,
      lifecycle: 'ACTIVE',
      note: p.note ?? null,
      principalType: 'GUEST',
      guestEmail,
      passStartTimeMs: p.passStartTimeMs,
      passEndTimeMs: p.passEndTimeMs,
      credentialValueHint: value.slice(-4),
      createdAtMillis: w.nowMs,
      updatedAtMillis: w.nowMs,
    };
    await store.insertPass(
      w.tx,
      {
        uuid,
        org_uuid: ctx.orgUuid,
        location_uuid: p.locationUuid,
        value_digest: digest,
        sealed_value: deps.secrets.seal(value, sealIdentity(ctx.orgUuid, uuid)),
        lifecycle: 'ACTIVE',
        pass_start_ms: p.passStartTimeMs,
        pass_end_ms: p.passEndTimeMs,
        data: JSON.stringify(record),
        created_at_ms: w.nowMs,
        updated_at_ms: w.nowMs,
      },
      doorUuids,
    );
    w.change({ entity: GUEST_PASS_ENTITY, entityUuid: uuid, type: 'CREATE', update: record });
    return { guestPass: { ...record, lifecycle: lifecycleAt(record, w.nowMs) }, credentialValue: value };
  });
}

/** The organization's passes by start time, a page at a time; both bounds on the start are exclusive. */
export async function findGuestPasses(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { startAfterMs?: number | null; startBeforeMs?: number | null; maxPageSize?: number | null; lastEvaluatedKey?: string | null },
): Promise<{ guestPasses: GuestPassRecord[]; lastEvaluatedKey: string | null }> {
  const limit = Math.min(input.maxPageSize ?? GUEST_PASS_PAGE.default, GUEST_PASS_PAGE.max);
  const after = input.lastEvaluatedKey ? decodePageKey(input.lastEvaluatedKey, ['number', 'string'] as const) : null;
  const rows = await store.pagePasses(deps.store.db, ctx.orgUuid, {
    startAfterMs: input.startAfterMs ?? undefined,
    startBeforeMs: input.startBeforeMs ?? undefined,
    after: after && { startMs: after[0], uuid: after[1] },
    limit: limit + 1,
  });
  const { page, lastEvaluatedKey } = pageOf(rows, limit, (r) => [Number(r.pass_start_ms), r.uuid]);
  const now = deps.clock.now();
  return { guestPasses: page.map((r) => toRecord(r, now)), lastEvaluatedKey };
}

/** The lifecycle changes of a pass: from which lifecycles (as they read now) each is allowed, and to what. */
export const GUEST_PASS_TRANSITIONS = {
  expire: { from: ['ACTIVE', 'SUSPENDED'], to: 'EXPIRED' },
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  unsuspend: { from: ['SUSPENDED'], to: 'ACTIVE' },
} as const satisfies Record<string, { from: readonly GuestPassLifecycle[]; to: GuestPassLifecycle }>;
export type GuestPassTransition = keyof typeof GUEST_PASS_TRANSITIONS;

async function passOf(w: WriteScope, uuid: string): Promise<GuestPassesTable> {
  const row = await store.findPass(w.tx, w.actor.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Guest pass');
  return row;
}

/** Expires (ends for good, keeping its record), suspends or unsuspends a pass. */
export async function transitionGuestPass(
  deps: PassDeps,
  ctx: CallerContext,
  transition: GuestPassTransition,
  input: { guestPassUuid: string },
): Promise<GuestPassRecord> {
  return write(deps, ctx, async (w) => {
    const row = await passOf(w, input.guestPassUuid);
    const { from, to } = GUEST_PASS_TRANSITIONS[transition];
    const now = lifecycleAt({ lifecycle: row.lifecycle, passEndTimeMs: Number(row.pass_end_ms) }, w.nowMs);
    if (!(from as readonly GuestPassLifecycle[]).includes(now))
      throw fail('NOT_ALLOWED', `A guest pass that is ${now} cannot be ${to === 'ACTIVE' ? 'unsuspended' : to.toLowerCase()}`);
    const record: GuestPassRecord = { ...(JSON.parse(row.data) as GuestPassRecord), lifecycle: to, updatedAtMillis: w.nowMs };
    await store.updatePass(w.tx, ctx.orgUuid, row.uuid, { lifecycle: to, data: JSON.stringify(record), updated_at_ms: w.nowMs });
    w.change({ entity: GUEST_PASS_ENTITY, entityUuid: row.uuid, type: 'UPDATE', update: record });
    return record;
  });
}

export async function deleteGuestPass(deps: PassDeps, ctx: CallerContext, input: { guestPassUuid: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await passOf(w, input.guestPassUuid);
    await store.deletePass(w.tx, ctx.orgUuid, row.uuid);
    w.change({ entity: GUEST_PASS_ENTITY, entityUuid: row.uuid, type: 'DELETE', update: toRecord(row, w.nowMs) });
  });
}

/**
 * A door being deleted leaves the passes that name it (`deps.recordCleaners.door`): a pass keeps its other doors,
 * and one left with none, which would open nothing, is deleted; each announced.
 */
export const guestPassesForgetDoor: RecordCleaner = async (w, doorUuid) => {
  for (const row of await store.passesAtDoor(w.tx, w.actor.orgUuid, doorUuid)) {
    const pass = JSON.parse(row.data) as GuestPassRecord;
    const kept = pass.doorUuids.filter((d) => d !== doorUuid);
    if (kept.length === 0) {
      await store.deletePass(w.tx, w.actor.orgUuid, row.uuid);
      w.change({ entity: GUEST_PASS_ENTITY, entityUuid: row.uuid, type: 'DELETE', update: toRecord(row, w.nowMs) });
      continue;
    }
    // The pass's link to the door goes with the door (the store's cascade); its record says so now.
    const data = JSON.stringify({ ...pass, doorUuids: kept, updatedAtMillis: w.nowMs });
    await store.updatePass(w.tx, w.actor.orgUuid, row.uuid, { lifecycle: row.lifecycle, data, updated_at_ms: w.nowMs });
    w.change({ entity: GUEST_PASS_ENTITY, entityUuid: row.uuid, type: 'UPDATE', update: toRecord({ ...row, data, updated_at_ms: w.nowMs }, w.nowMs) });
  }
};

/** The pass of the organization whose value was presented at a reader, or null. */
export async function findPresentedGuestPass(source: ReadSource, orgUuid: string, presented: string): Promise<GuestPassRecord | null> {
  const row = await store.findPassByDigest(dbOf(source), orgUuid, digestOf(orgUuid, presented));
  return row ? (JSON.parse(row.data) as GuestPassRecord) : null;
}

const decision = (
  granted: boolean,
  reason: BadgeReason,
  authorizationResult: BadgeDecision['authorizationResult'],
  authDecisionSource: BadgeDecision['authDecisionSource'],
  doorState: BadgeDecision['doorState'],
): BadgeDecision => ({
  granted,
  reason,
  authenticationResult: 'ACCEPTED',
  authorizationResult,
  authDecisionSource,
  accessGrantOrRevocationUuid: null,
  lockedDown: doorState === 'LOCKED_DOWN',
  doorState,
});

/**
 * Decides a guest pass presented at a door at `atMs`: DISABLED when suspended, expired or outside its window;
 * DENIED by a lockdown of the door (a guest is never exempt); ALLOWED at the doors it names, or at a door that
 * stands unlocked; otherwise DENIED.
 */
export async function decideGuestPass(source: ReadSource, door: DoorRecord, pass: GuestPassRecord, atMs: number): Promise<BadgeDecision> {
  const conditions = await badgeConditionsAt(source, door, atMs);
  const state = conditions.doorLockdownState;
  const lifecycle = lifecycleAt(pass, atMs);
  if (lifecycle === 'SUSPENDED') return decision(false, 'CREDENTIAL_SUSPENDED', 'DISABLED', 'CONFIG', state);
  if (lifecycle !== 'ACTIVE') return decision(false, 'CREDENTIAL_EXPIRED', 'DISABLED', 'CONFIG', state);
  if (atMs < pass.passStartTimeMs) return decision(false, 'CREDENTIAL_NOT_YET_VALID', 'DISABLED', 'CONFIG', state);
  if (lockdownRefuses(conditions, null)) return decision(false, 'LOCATION_LOCKED_DOWN', 'DENIED', 'LOCKDOWN', state);
  if (pass.doorUuids.includes(door.uuid)) return decision(true, 'GRANTED', 'ALLOWED', 'ACCESS_GRANT', state);
  if (doorStandsUnlocked(conditions)) return decision(true, 'DOOR_UNLOCKED', 'ALLOWED', 'CONFIG', state);
  return decision(false, 'NO_ACCESS_AT_DOOR', 'DENIED', 'ACCESS_GRANT', state);
}
