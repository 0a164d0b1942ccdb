import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { isRuuid } from '../../../ids.js';
import type { ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import * as labels from './store.js';
import { findDevice, toDeviceRecord, type DeviceRecord } from '../service.js';
import * as store from '../store.js';

type LandingDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export const MAX_LABELS_PER_LANDING = 50;
export const DEFAULT_PAGE_SIZE = 100;

async function callersLanding(source: ReadSource, ctx: CallerContext, uuid: string): Promise<DeviceRecord> {
  const landing = await findDevice(source, ctx.orgUuid, uuid, ['ELEVATOR_LANDING']);
  if (!landing) throw fail('NOT_FOUND', 'Access controlled elevator landing');
  return landing;
}

function checkedLabel(label: string): string {
  const trimmed = label.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'label: must not be empty');
  return trimmed;
}

interface LabelInput {
  accessControlledElevatorLandingUuid: string;
  label: string;
}

/** `addAccessControlledElevatorLandingLabel`: idempotent; a landing holds at most MAX_LABELS_PER_LANDING labels. */
export async function addLandingLabel(deps: LandingDeps, ctx: CallerContext, input: LabelInput): Promise<void> {
  const label = checkedLabel(input.label);
  await write(deps, ctx, async (w) => {
    const landing = await callersLanding(w, ctx, input.accessControlledElevatorLandingUuid);
    const current = await labels.listLabels(w.tx, landing.uuid);
    if (current.includes(label)) return;
    if (current.length >= MAX_LABELS_PER_LANDING) throw fail('NOT_ALLOWED', `An elevator landing holds at most ${MAX_LABELS_PER_LANDING} labels`);
    await labels.insertLabel(w.tx, { landing_uuid: landing.uuid, label, org_uuid: ctx.orgUuid, created_at_ms: w.nowMs });
    const update = { uuid: landing.uuid, orgUuid: ctx.orgUuid, labels: await labels.listLabels(w.tx, landing.uuid) };
    w.change({ entity: 'ELEVATOR_LANDING', entityUuid: landing.uuid, deviceUuid: landing.uuid, type: 'UPDATE', update });
  });
}

/** The ELEVATOR_LANDING change a label edit announces: the landing's labels after it. */
export interface ElevatorLandingLabels {
  uuid: string;
  orgUuid: string;
  labels: string[];
}

/** `removeAccessControlledElevatorLandingLabel`. */
export async function removeLandingLabel(deps: LandingDeps, ctx: CallerContext, input: LabelInput): Promise<void> {
  const label = checkedLabel(input.label);
  await write(deps, ctx, async (w) => {
    const landing = await callersLanding(w, ctx, input.accessControlledElevatorLandingUuid);
    if (!(await labels.listLabels(w.tx, landing.uuid)).includes(label)) throw fail('NOT_FOUND', `Label "${label}" of the elevator landing`);
    await labels.deleteLabel(w.tx, landing.uuid, label);
    const update = { uuid: landing.uuid, orgUuid: ctx.orgUuid, labels: await labels.listLabels(w.tx, landing.uuid) };
    w.change({ entity: 'ELEVATOR_LANDING', entityUuid: landing.uuid, deviceUuid: landing.uuid, type: 'UPDATE', update });
  });
}

/** `getAccessControlledElevatorLandingLabelsForOrg`: landing uuid to its labels, for landings that have any. */
export async function getLandingLabelsForOrg(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, string[]>> {
  const byLanding: Record<string, string[]> = {};
  for (const row of await labels.listOrgLabels(deps.store.db, ctx.orgUuid)) (byLanding[row.landing_uuid] ??= []).push(row.label);
  return byLanding;
}

/** The reference's AccessControlledElevatorLandingShadow: a landing stays access-controlled until a door-state domain says otherwise. */
function toShadow(landing: DeviceRecord) {
  return {
    componentCompositeUuid: landing.uuid,
    orgUuid: landing.orgUuid,
    type: 'AccessControlledElevatorLandingShadow',
    state: { state: 'ACCESS_CONTROLLED', source: 'DEFAULT_STATE', stateUpdateEventTimestampMs: landing.updatedAtMillis },
    createdAtMillis: landing.createdAtMillis,
    updatedAtMillis: landing.updatedAtMillis,
  };
}

export interface ShadowPageInput {
  maxPageSize?: number | null;
  lastEvaluatedKey?: string | null;
  locationUuid?: string;
}

/**
 * `findAccessControlledElevatorLandingShadows` (and `...ByLocation`): a page of shadows in landing-uuid order.
 * `lastEvaluatedKey` is the uuid of the page's last landing, answered only when more may follow; paging is by
 * key, so a page never skips or repeats a landing, even while landings are added.
 */
/** A page of the organization's landings (a location's, when given), paged by key: the records and the next key. */
async function pageLandings(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: ShadowPageInput) {
  const after = input.lastEvaluatedKey || undefined;
  if (after !== undefined && !isRuuid(after)) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key that this operation answered');
  const limit = input.maxPageSize ?? DEFAULT_PAGE_SIZE;
  const rows = await store.pageDevicesOfKind(deps.store.db, {
    orgUuid: ctx.orgUuid,
    kind: 'ELEVATOR_LANDING',
    locationUuid: input.locationUuid,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit).map(toDeviceRecord);
  return { page, lastEvaluatedKey: rows.length > limit ? page[page.length - 1].uuid : null };
}

export async function findLandingShadows(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: ShadowPageInput) {
  const { page, lastEvaluatedKey } = await pageLandings(deps, ctx, input);
  return { shadows: page.map(toShadow), lastEvaluatedKey };
}

/** The reference's AccessControlledElevatorLanding: the landing as a door-like composite at its location and floor. */
function toLanding(landing: DeviceRecord) {
  const a = landing.attributes;
  return {
    uuid: landing.uuid,
    orgUuid: landing.orgUuid,
    name: landing.name,
    locationUuid: landing.locationUuid,
    ownerDeviceUuid: typeof a.ownerDeviceUuid === 'string' ? a.ownerDeviceUuid : null,
    floorNumber: typeof a.floor === 'number' ? a.floor : null,
    type: 'AccessControlledElevatorLanding',
    defaultAccessState: 'ACCESS_CONTROLLED',
    remoteUnlockEnabled: a.remoteUnlockEnabled !== false,
    geofenceEnabled: a.geofenceEnabled === true,
    associatedCameras: Array.isArray(a.cameras) ? (a.cameras as string[]) : [],
    createdAtMillis: landing.createdAtMillis,
    updatedAtMillis: landing.updatedAtMillis,
  };
}

/** `findAccessControlledElevatorLandingsByLocation`: a page of a location's landings, paged by key as the shadows are. */
export async function findLandingsByLocation(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: ShadowPageInput & { locationUuid: string }) {
  const { page, lastEvaluatedKey } = await pageLandings(deps, ctx, input);
  return { accessControlledElevatorLandings: page.map(toLanding), lastEvaluatedKey };
}
