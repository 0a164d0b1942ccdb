import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import type { ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { DeviceReferenceCleaner } from '../device-references.js';
import { findDevice, findLocation } from '../service.js';
import { deviceUuidOf } from '../../../ids.js';
import { findSchedule } from '../../schedules/service.js';
import { ownedRecords } from '../../orgs/owned-records.js';
import type { ScheduleUse } from '../../schedules/schedule-usage.js';

export const ARCHIVING_SCOPES = ['ORG', 'LOCATION', 'DEVICE'] as const;
export type ArchivingScope = (typeof ARCHIVING_SCOPES)[number];
export const UPLOAD_STRATEGIES = ['WEEKLY_SCHEDULED', 'CONTINUOUS'] as const;

/**
 * A cloud archiving config of the organization, a location or a device (at most one per target). Gatehouse
 * keeps no footage in a cloud archive: the config is kept and answered, its targets and schedule checked, and
 * the schedule it names cannot be deleted while it does.
 */
export interface CloudArchivingRecord {
  uuid: string;
  orgUuid: string;
  scope: ArchivingScope;
  targetUuid: string;
  uploadStrategy: (typeof UPLOAD_STRATEGIES)[number];
  uploadScheduleUuid: string | null;
  uploadScheduleInverted: boolean;
}

const ownerOf = (scope: string, targetUuid: string) => `${scope}:${targetUuid}`;

async function checkTarget(source: ReadSource, orgUuid: string, scope: ArchivingScope, targetUuid: string): Promise<void> {
  const found =
    scope === 'ORG'
      ? targetUuid === orgUuid
      : scope === 'LOCATION'
        ? await findLocation(source, orgUuid, targetUuid)
        : await findDevice(source, orgUuid, targetUuid);
  if (!found) throw fail('NOT_FOUND', `${scope === 'ORG' ? 'Organization' : scope === 'LOCATION' ? 'Location' : 'Device'} ${targetUuid}`);
}

async function checkConfig(w: WriteScope, r: CloudArchivingRecord): Promise<CloudArchivingRecord> {
  await checkTarget(w, w.actor.orgUuid, r.scope, r.targetUuid);
  if (r.uploadStrategy === 'CONTINUOUS') return { ...r, uploadScheduleUuid: null, uploadScheduleInverted: false };
  if (!r.uploadScheduleUuid) throw fail('INVALID_VALUE', 'uploadScheduleUuid: a WEEKLY_SCHEDULED config needs a schedule');
  if (!(await findSchedule(w, w.actor.orgUuid, r.uploadScheduleUuid))) throw fail('NOT_FOUND', `Schedule ${r.uploadScheduleUuid}`);
  return r;
}

const records = orgRecords({
  entity: 'CLOUD_ARCHIVING_CONFIG',
  label: 'Cloud archiving config',
  ownerOf: (r) => ownerOf(r.scope, r.targetUuid),
  check: checkConfig,
});
const configs = ownedRecords(records);

export async function listArchivingConfigs(source: ReadSource, orgUuid: string): Promise<CloudArchivingRecord[]> {
  return records.list(source, orgUuid);
}

export interface ArchivingInput {
  scope: ArchivingScope;
  targetUuid?: string | null;
  uploadStrategy: CloudArchivingRecord['uploadStrategy'];
  uploadScheduleUuid?: string | null;
  uploadScheduleInverted?: boolean | null;
}

/** Sets the config of its target (the organization's own when the scope is ORG and no target is given). */
export async function putArchivingConfig(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: ArchivingInput,
): Promise<CloudArchivingRecord> {
  const targetUuid = input.targetUuid ?? (input.scope === 'ORG' ? ctx.orgUuid : null);
  if (!targetUuid) throw fail('INVALID_VALUE', `targetUuid: a ${input.scope} config needs its target`);
  const config = {
    scope: input.scope,
    targetUuid,
    uploadStrategy: input.uploadStrategy,
    uploadScheduleUuid: input.uploadScheduleUuid ?? null,
    uploadScheduleInverted: input.uploadScheduleInverted ?? false,
  };
  return write(deps, ctx, (w) => configs.upsert(w, ownerOf(input.scope, targetUuid), () => ({ orgUuid: ctx.orgUuid, ...config }), config));
}

export async function deleteArchivingConfig(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { scope: ArchivingScope; targetUuid?: string | null },
): Promise<void> {
  const targetUuid = input.targetUuid ?? (input.scope === 'ORG' ? ctx.orgUuid : '');
  await write(deps, ctx, async (w) => {
    if (!(await configs.remove(w, ownerOf(input.scope, targetUuid)))) throw fail('NOT_FOUND', `Cloud archiving config of ${input.scope} ${targetUuid}`);
  });
}

/** The schedule check of the composition root: the configs that upload on the schedule. */
export async function archivingUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await records.list(source, orgUuid))
    .filter((c) => c.uploadScheduleUuid === scheduleUuid)
    .map((c) => ({ kind: 'cloudArchiving', uuid: c.uuid, label: `cloud archiving config of ${c.scope} ${c.targetUuid}` }));
}

/** A deleted device's own cloud archiving config goes with it (records.delete announces it). */
export const archivingForgetsDevice: DeviceReferenceCleaner = async (w, device) => {
  await configs.remove(w, ownerOf('DEVICE', device.uuid));
};

/**
 * The config that applies to a device: its own, else its location's, else the organization's; null when none
 * does (its footage is not archived). Another organization's device is unknown.
 */
export async function archivingConfigOfDevice(deps: Pick<Deps, 'store'>, ctx: CallerContext, deviceRef: string): Promise<CloudArchivingRecord | null> {
  const uuid = deviceUuidOf(deviceRef);
  const device = uuid ? await findDevice(deps, ctx.orgUuid, uuid) : null;
  if (!device) throw fail('NOT_FOUND', `Device ${deviceRef}`);
  const all = await records.list(deps, ctx.orgUuid);
  const of = (scope: ArchivingScope, target: string | null) => all.find((c) => c.scope === scope && c.targetUuid === target);
  return of('DEVICE', device.uuid) ?? of('LOCATION', device.locationUuid) ?? of('ORG', ctx.orgUuid) ?? null;
}

/**
 * `getCloudArchivedMediaInfo`: the oldest archived second of a camera's video. The simulated cameras record
 * from the moment they are added, so while a config applies their archive reaches back to then; without
 * one nothing is archived (null).
 */
export async function cloudArchivedMediaInfo(deps: Pick<Deps, 'store'>, ctx: CallerContext, cameraRef: string) {
  const uuid = deviceUuidOf(cameraRef);
  const camera = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA', 'DOORBELL_CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${cameraRef}`);
  const config = await archivingConfigOfDevice(deps, ctx, camera.uuid);
  return { oldestArchivedVideoSegmentSecs: config ? Math.floor(camera.createdAtMillis / 1000) : null };
}
