import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import * as store from './notification-mutes.store.js';
import type { NotificationMutesTable } from '../tables.js';

/** The stream's entity of a device's notification mute. */
export const NOTIFICATION_MUTE_ENTITY = 'NOTIFICATION_MUTE';
/** The longest mute: a week. */
export const MAX_MUTE_SEC = 7 * 86_400;

/** A device's mute as the stream and the mute list carry it. */
export interface NotificationMuteRecord {
  orgUuid: string;
  deviceUuid: string;
  mutedAtMs: number;
  mutedUntilMs: number;
  userUuid: string | null;
}

const toRecord = (row: NotificationMutesTable): NotificationMuteRecord => ({
  orgUuid: row.org_uuid,
  deviceUuid: row.device_uuid,
  mutedAtMs: Number(row.muted_at_ms),
  mutedUntilMs: Number(row.muted_until_ms),
  userUuid: row.user_uuid,
});

/**
 * muteNotificationsForDevice: for durationSec from now, the device's policy alerts notify nobody (no user
 * notification, webhook or chat message); they are still recorded and listed. A new mute replaces the one in
 * force; 0 ends it. Announced as NOTIFICATION_MUTE (UPDATE, or DELETE when ended).
 */
export async function muteNotificationsForDevice(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { deviceUuid: string; durationSec: number },
): Promise<NotificationMuteRecord> {
  return write(deps, ctx, async (w) => {
    const device = await findDevice(w, ctx.orgUuid, input.deviceUuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    const row: NotificationMutesTable = {
      org_uuid: ctx.orgUuid,
      device_uuid: device.uuid,
      muted_at_ms: w.nowMs,
      muted_until_ms: w.nowMs + input.durationSec * 1000,
      user_uuid: ctx.userUuid,
    };
    if (input.durationSec === 0) await store.deleteMute(w.tx, ctx.orgUuid, device.uuid);
    else await store.putMute(w.tx, row);
    const record = toRecord(row);
    w.change({
      entity: NOTIFICATION_MUTE_ENTITY,
      entityUuid: device.uuid,
      deviceUuid: device.uuid,
      type: input.durationSec === 0 ? 'DELETE' : 'UPDATE',
      update: record,
    });
    return record;
  });
}

/** The devices of the organization whose notifications are muted now (a Gatehouse read of the state). */
export async function getNotificationMutes(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext): Promise<NotificationMuteRecord[]> {
  return (await store.listMutesInForce(deps.store.db, ctx.orgUuid, deps.clock.now())).map(toRecord);
}

/** When the device's mute in force at the write's time ends, or null: read by the write that raises an alert. */
export async function mutedUntil(w: WriteScope, orgUuid: string, deviceUuid: string): Promise<number | null> {
  const row = await store.findMute(w.tx, orgUuid, deviceUuid);
  return row && Number(row.muted_until_ms) > w.nowMs ? Number(row.muted_until_ms) : null;
}

/**
 * Whether an alert (as its change carries it) must notify nobody: it was raised while its device was muted.
 * What notifies of alerts (user notifications, chat, webhooks, an integration's notification) asks this.
 */
export const notifiesNobody = (alert: { notificationsMutedUntilMs?: number | null }): boolean => alert.notificationsMutedUntilMs != null;
