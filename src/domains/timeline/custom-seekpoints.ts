import { facetId, newRuuid } from '../../ids.js';
import type { FootageColor } from '../../schemas/activities.js';
import { fromDbBool, toDbBool } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import type { CustomSeekpointInput, SeekpointIndex } from './seekpoints.schemas.js';
import { SOURCE_LIMIT, type Span } from './span.js';
import * as store from './store.js';
import type { CustomSeekpointsTable, SeekpointTarget } from './tables.js';

/**
 * Custom seekpoints: named, coloured marks on a camera's footage or a door's timeline. One kit for both
 * targets (the events domain keeps cameras' marks through it, the access domain doors'), so each domain checks
 * that the camera or door is the caller's and the kit stores, lists, deletes and announces the marks.
 */

/** A custom seekpoint as the stream announces it (CUSTOM_SEEKPOINT) and the readers map it. */
export interface CustomSeekpointRecord {
  uuid: string;
  orgUuid: string;
  targetKind: SeekpointTarget;
  /** A camera's facet id (`<uuid>.v0`); null for a door's mark. */
  deviceUuid: string | null;
  /** The door of a door's mark; null for a camera's. */
  accessControlledDoorUuid: string | null;
  locationUuid: string | null;
  timestampMs: number;
  name: string;
  description: string | null;
  color: FootageColor | null;
  displayOverlay: boolean | null;
  createdAtMs: number;
}

export const CUSTOM_SEEKPOINT_ENTITY = 'CUSTOM_SEEKPOINT';

/** What a mark is put on: a camera or a door of the writer's organization (the domain has checked it). */
export interface SeekpointTargetRef {
  kind: SeekpointTarget;
  uuid: string;
  locationUuid: string | null;
}

function toRecord(row: CustomSeekpointsTable): CustomSeekpointRecord {
  const camera = row.target_kind === 'CAMERA';
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    targetKind: row.target_kind,
    deviceUuid: camera ? facetId(row.target_uuid) : null,
    accessControlledDoorUuid: camera ? null : row.target_uuid,
    locationUuid: row.location_uuid,
    timestampMs: Number(row.timestamp_ms),
    name: row.name,
    description: row.description,
    color: row.color as FootageColor | null,
    displayOverlay: fromDbBool(row.display_overlay),
    createdAtMs: Number(row.created_at_ms),
  };
}

/** Stores marks on a target in the writer's transaction, each announced as a CUSTOM_SEEKPOINT CREATE. */
export async function createCustomSeekpoints(
  w: WriteScope,
  target: SeekpointTargetRef,
  points: readonly CustomSeekpointInput[],
): Promise<CustomSeekpointRecord[]> {
  const rows: CustomSeekpointsTable[] = points.map((p) => ({
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    target_kind: target.kind,
    target_uuid: target.uuid,
    location_uuid: target.locationUuid,
    timestamp_ms: p.timestampMs,
    name: p.name,
    description: null,
    color: p.color ?? null,
    display_overlay: toDbBool(p.displayOverlay),
    created_at_ms: w.nowMs,
  }));
  await store.insertCustomSeekpoints(w.tx, rows);
  const records = rows.map(toRecord);
  for (const r of records) announce(w, r, 'CREATE');
  return records;
}

function announce(w: WriteScope, record: CustomSeekpointRecord, type: 'CREATE' | 'DELETE'): void {
  const deviceUuid = record.targetKind === 'CAMERA' ? record.deviceUuid!.slice(0, 22) : null;
  w.change({ entity: CUSTOM_SEEKPOINT_ENTITY, entityUuid: record.uuid, deviceUuid, type, update: record, timestampMs: record.timestampMs });
}

export interface CustomSeekpointFilter {
  /** The marks of these cameras or doors (their uuids, without facet)... */
  targetUuids?: readonly string[];
  /** ...or, when no targets are named, of these locations. */
  locationUuids?: readonly string[];
  kind?: SeekpointTarget;
  name?: string | null;
  description?: string | null;
}

/** The marks of some targets or locations over a span, in one query (at most SOURCE_LIMIT: see span.ts). */
export async function listCustomSeekpoints(source: ReadSource, orgUuid: string, span: Span, filter: CustomSeekpointFilter): Promise<CustomSeekpointRecord[]> {
  const rows = await store.listCustomSeekpoints(dbOf(source), { orgUuid, ...span, ...filter, limit: SOURCE_LIMIT });
  return rows.map(toRecord);
}

/** Deletes a target's marks in [fromMs, toMs], of one name when given; each is announced as a CUSTOM_SEEKPOINT DELETE. */
export async function deleteCustomSeekpoints(
  w: WriteScope,
  targetUuid: string,
  range: { fromMs: number; toMs: number; name?: string | null },
): Promise<number> {
  const rows = await store.deleteCustomSeekpoints(w.tx, { orgUuid: w.actor.orgUuid, targetUuid, ...range });
  for (const row of rows) announce(w, toRecord(row), 'DELETE');
  return rows.length;
}

/** A mark as getCustomFootageSeekpointsV2 lists it (the catalogue's SeekpointIndexType). */
export function toSeekpointIndex(r: CustomSeekpointRecord): SeekpointIndex {
  return {
    compositComponentUuid: r.accessControlledDoorUuid,
    customDescription: r.description,
    customDisplayName: r.name,
    deviceUuid: r.deviceUuid,
    locationUuid: r.locationUuid,
    objectType: 'CUSTOM',
    orgUuid: r.orgUuid,
    subLocationsHierarchyKey: r.locationUuid ? { locationUuids: [r.locationUuid] } : null,
    timestampMs: r.timestampMs,
  };
}
