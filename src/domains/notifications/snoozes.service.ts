import type { RecordCleaner } from '../../records/references.js';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { write, type WriteScope } from '../../bus/write.js';
import type { DeviceReferenceCleaner } from '../devices/device-references.js';
import * as store from './store.js';
import type { NotificationSnoozesTable } from './tables.js';

export const SNOOZE_SCOPES = ['ALL', 'DEVICE', 'LOCATION', 'COMPONENT_COMPOSITE'] as const;
export type SnoozeScope = (typeof SNOOZE_SCOPES)[number];

/** The longest a snooze may last: a year. */
export const MAX_SNOOZE_SEC = 365 * 24 * 3600;

/** A user's pause of notifications, as the stream announces it. */
export interface NotificationSnoozeRecord {
  uuid: string;
  orgUuid: string;
  userUuid: string;
  scope: SnoozeScope;
  /** The device, location or component composite (door); null for ALL. */
  targetUuid: string | null;
  timestampSec: number;
  durationSecs: number;
}

const toRecord = (r: NotificationSnoozesTable): NotificationSnoozeRecord => ({
  uuid: r.uuid,
  orgUuid: r.org_uuid,
  userUuid: r.user_uuid,
  scope: r.scope as SnoozeScope,
  targetUuid: r.target_uuid,
  timestampSec: Math.floor(r.starts_at_ms / 1000),
  durationSecs: Math.round((r.ends_at_ms - r.starts_at_ms) / 1000),
});

type SnoozeDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

function userOf(ctx: CallerContext): string {
  if (!ctx.userUuid) throw fail('NOT_FOUND', 'The user of this key');
  return ctx.userUuid;
}

export interface SnoozeInput {
  durationSec: number;
  scheduledTimestampSec?: number | null;
}

/**
 * Snoozes the caller's notifications from `scheduledTimestampSec` (default: now) for `durationSec`: all of
 * them, or those of each target. While a snooze is in force, notify.ts sends the user nothing it covers.
 */
export async function snooze(
  deps: SnoozeDeps,
  ctx: CallerContext,
  scope: SnoozeScope,
  targets: readonly string[],
  input: SnoozeInput,
): Promise<NotificationSnoozeRecord[]> {
  const userUuid = userOf(ctx);
  if (!(input.durationSec >= 1 && input.durationSec <= MAX_SNOOZE_SEC)) throw fail('INVALID_VALUE', `durationSec: must be 1 to ${MAX_SNOOZE_SEC} seconds`);
  const unique = [...new Set(targets)];
  if (scope !== 'ALL' && unique.length === 0) throw fail('INVALID_VALUE', `a ${scope} snooze needs at least one target`);
  return write(deps, ctx, async (w) => {
    const startsAtMs = input.scheduledTimestampSec != null ? input.scheduledTimestampSec * 1000 : w.nowMs;
    const endsAtMs = startsAtMs + input.durationSec * 1000;
    if (endsAtMs <= w.nowMs) throw fail('INVALID_VALUE', 'scheduledTimestampSec: the snooze would be over already');
    // Each target is the organization's: the edge resolved it (SnoozeTargetsRequest: RefUuid of the scope's kind).
    const rows = (scope === 'ALL' ? [null] : unique).map((target) => ({
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      user_uuid: userUuid,
      scope,
      target_uuid: target,
      starts_at_ms: startsAtMs,
      ends_at_ms: endsAtMs,
      created_at_ms: w.nowMs,
    }));
    await store.insertSnoozes(w.tx, rows);
    return rows.map((row) => {
      const record = toRecord(row);
      w.change({ entity: 'NOTIFICATION_SNOOZE', entityUuid: row.uuid, type: 'CREATE', update: record });
      return record;
    });
  });
}

type Interval = { uuid: string; timestampSec: number; durationSecs: number };

/** The caller's snoozes in force or planned, by scope (the reference's snoozed notification settings). */
export async function snoozedSettings(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  const rows = (await store.snoozesOf(deps.store.db, ctx.orgUuid, [userOf(ctx)], deps.clock.now())).map(toRecord);
  const interval = (r: NotificationSnoozeRecord): Interval => ({ uuid: r.uuid, timestampSec: r.timestampSec, durationSecs: r.durationSecs });
  const byTarget = (scope: SnoozeScope) => {
    const map: Record<string, Interval[]> = {};
    for (const r of rows.filter((x) => x.scope === scope)) (map[r.targetUuid!] ??= []).push(interval(r));
    return map;
  };
  return {
    snoozedForAllNotificationsIntervals: rows.filter((r) => r.scope === 'ALL').map(interval),
    snoozedForDevicesMap: byTarget('DEVICE'),
    snoozedForLocationsMap: byTarget('LOCATION'),
    snoozedForComponentCompositesMap: byTarget('COMPONENT_COMPOSITE'),
  };
}

/** Ends one of the caller's snoozes of the scope; another user's or another scope's uuid is unknown. */
export async function deleteSnooze(deps: SnoozeDeps, ctx: CallerContext, scope: SnoozeScope, uuid: string): Promise<void> {
  const userUuid = userOf(ctx);
  await write(deps, ctx, async (w) => {
    const row = await store.deleteSnooze(w.tx, ctx.orgUuid, userUuid, uuid, scope);
    if (!row) throw fail('NOT_FOUND', `Snooze ${uuid}`);
    w.change({ entity: 'NOTIFICATION_SNOOZE', entityUuid: uuid, type: 'DELETE', update: toRecord(row) });
  });
}

/** Whether a snooze in force covers an event of this device, location or component composite. */
export function snoozeCovers(
  s: Pick<NotificationSnoozesTable, 'scope' | 'target_uuid'>,
  targets: { deviceUuid: string; locationUuid: string | null; componentCompositeUuid?: string | null },
): boolean {
  if (s.scope === 'ALL') return true;
  const target = s.scope === 'DEVICE' ? targets.deviceUuid : s.scope === 'LOCATION' ? targets.locationUuid : targets.componentCompositeUuid;
  return target != null && s.target_uuid === target;
}

/** Ends every snooze of a target being deleted, each announced. */
async function endSnoozesOf(w: WriteScope, scope: SnoozeScope, targetUuid: string): Promise<void> {
  for (const row of await store.deleteSnoozesOfTarget(w.tx, w.actor.orgUuid, scope, targetUuid)) {
    w.change({ entity: 'NOTIFICATION_SNOOZE', entityUuid: row.uuid, type: 'DELETE', update: toRecord(row) });
  }
}

/** A deleted device's snoozes are over: each user's snooze of it is deleted and announced. */
export const snoozesForgetDevice: DeviceReferenceCleaner = (w, device) => endSnoozesOf(w, 'DEVICE', device.uuid);

/** A deleted location's snoozes are over, as a device's are (`deps.recordCleaners.location`). */
export const snoozesForgetLocation: RecordCleaner = (w, locationUuid) => endSnoozesOf(w, 'LOCATION', locationUuid);

/** A deleted door's (a component composite's) likewise (`deps.recordCleaners.door`). */
export const snoozesForgetDoor: RecordCleaner = (w, doorUuid) => endSnoozesOf(w, 'COMPONENT_COMPOSITE', doorUuid);

/** A deleted user's snoozes go with them (src/records/references.ts). */
export const snoozesForgetUser: RecordCleaner = async (w, userUuid) => {
  await store.deleteSnoozesOfUser(w.tx, w.actor.orgUuid, userUuid);
};
