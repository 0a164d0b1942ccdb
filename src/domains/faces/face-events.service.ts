import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { deviceOfFacet, facetId, isRuuid, newRuuid } from '../../ids.js';
import { write, type Actor } from '../../store/write.js';
import { findDevice } from '../devices/service.js';
import { FACE_EVENT_PAGE, type FaceEventRecord, type FindFaceEventsByOrgRequest } from './face-events.schemas.js';
import * as store from './face-events.store.js';
import { findPerson, findPersonByName } from './service.js';
import type { FaceEventsTable } from './tables.js';

/** The stream's entity names of a face sighting and of a person's labels. */
export const FACE_EVENT_ENTITY = 'FACE_EVENT';
export const PERSON_LABELS_ENTITY = 'PERSON_LABELS';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type ReadDeps = Pick<Deps, 'store'>;

function toFaceEvent(row: FaceEventsTable): FaceEventRecord {
  const match = row.person_uuid ? { uuid: row.person_uuid, name: row.face_name, faceId: null, confidence: 1 } : null;
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    deviceUuid: facetId(row.device_uuid),
    locationUuid: row.location_uuid,
    eventTimestamp: row.timestamp_ms,
    personUuid: row.person_uuid,
    faceName: row.face_name,
    hasEmbedding: true,
    detectionConfidence: 1,
    embeddingConfidence: 1,
    selectedPersonMatch: match,
    topPersonMatches: match ? [match] : [],
    imageS3Key: null,
    thumbnailS3Key: null,
  };
}

/**
 * A camera saw a face (the simulator's `face` event): a known person, named by uuid or by name, or an
 * unidentified face when no person is given. Recorded and announced as a FACE_EVENT.
 */
export async function recordFaceSighting(
  deps: WriteDeps,
  actor: Actor,
  input: { cameraUuid: string; person?: string | null; timestampMs?: number },
): Promise<FaceEventRecord> {
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, input.cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    let person = null;
    if (input.person != null) {
      person = (isRuuid(input.person) ? await findPerson(w, actor.orgUuid, input.person) : null) ?? (await findPersonByName(w, actor.orgUuid, input.person));
      if (!person) throw fail('NOT_FOUND', 'Person');
    }
    const row: FaceEventsTable = {
      uuid: newRuuid(),
      org_uuid: actor.orgUuid,
      device_uuid: camera.uuid,
      location_uuid: camera.locationUuid,
      person_uuid: person?.uuid ?? null,
      face_name: person?.name ?? null,
      timestamp_ms: input.timestampMs ?? w.nowMs,
    };
    await store.insertFaceEvent(w.tx, row);
    const record = toFaceEvent(row);
    w.change({ entity: FACE_EVENT_ENTITY, entityUuid: row.uuid, type: 'CREATE', deviceUuid: camera.uuid, update: record, timestampMs: row.timestamp_ms });
    return record;
  });
}

export async function getFaceEvent(deps: ReadDeps, ctx: CallerContext, uuid: string): Promise<FaceEventRecord> {
  const row = await store.findFaceEvent(deps.store.db, ctx.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Face event');
  return toFaceEvent(row);
}

const WEEK_MS = 7 * 86_400_000;
const KEY = /^(\d{1,16})\.([A-Za-z0-9_-]{22})$/;

function instant(value: string | null | undefined, field: string): number | null {
  if (value == null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw fail('INVALID_VALUE', `timestampFilter.${field}: not a date-time`);
  return ms;
}

/**
 * findFaceEventsByOrg: sightings newest first, within the timestamp filter (default: the last 7 days),
 * a page at a time; lastEvaluatedKey names the page's last event.
 */
export async function findFaceEvents(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: FindFaceEventsByOrgRequest,
): Promise<{ faceEvents: FaceEventRecord[]; lastEvaluatedKey: string | null }> {
  const f = input.searchFilter ?? {};
  const page = input.pageRequest ?? {};
  const now = deps.clock.now();
  const toMs = instant(f.timestampFilter?.rangeEnd, 'rangeEnd') ?? now;
  const fromMs = instant(f.timestampFilter?.rangeStart, 'rangeStart') ?? toMs - WEEK_MS;
  if (fromMs > toMs) throw fail('INVALID_VALUE', 'timestampFilter: rangeStart must not be after rangeEnd');
  let after = null;
  if (page.lastEvaluatedKey != null) {
    const m = KEY.exec(page.lastEvaluatedKey);
    if (!m) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
    after = { timestampMs: Number(m[1]), uuid: m[2] };
  }
  let deviceUuids: string[] | null = null;
  if (f.deviceUuids?.length) {
    deviceUuids = [];
    for (const ref of f.deviceUuids) {
      const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
      const device = uuid ? await findDevice(deps, ctx.orgUuid, uuid) : null;
      if (!device) throw fail('NOT_FOUND', `Device ${ref}`);
      deviceUuids.push(device.uuid);
    }
  }
  let personUuids: string[] | null = f.personUuids?.length ? [...f.personUuids] : null;
  if (f.labels?.length) {
    const labelled = await store.peopleWithLabels(deps.store.db, ctx.orgUuid, f.labels);
    personUuids = personUuids ? personUuids.filter((p) => labelled.includes(p)) : labelled;
  }
  const max = page.maxPageSize ?? FACE_EVENT_PAGE.default;
  // Every stored sighting has an embedding, so hasEmbedding false matches none.
  if (f.hasEmbedding === false) return { faceEvents: [], lastEvaluatedKey: null };
  const rows = await store.listFaceEvents(deps.store.db, ctx.orgUuid, {
    deviceUuids,
    locationUuids: f.locationUuids?.length ? f.locationUuids : null,
    personUuids,
    faceNames: f.faceNames?.length ? f.faceNames : null,
    nameContains: f.faceNameContains ? f.faceNameContains.toLowerCase() : null,
    hasName: f.hasName ?? null,
    fromMs,
    toMs,
    after,
    limit: max + 1,
  });
  const events = rows.slice(0, max);
  const last = events.at(-1);
  return { faceEvents: events.map(toFaceEvent), lastEvaluatedKey: rows.length > max && last ? `${last.timestamp_ms}.${last.uuid}` : null };
}

export async function findPersonLabels(deps: ReadDeps, ctx: CallerContext): Promise<Record<string, string[]>> {
  const answer: Record<string, string[]> = {};
  for (const row of await store.listPersonLabels(deps.store.db, ctx.orgUuid)) (answer[row.person_uuid] ??= []).push(row.label);
  return answer;
}

/** Adds or removes a label of a person of the organization; a change (PERSON_LABELS) only when the labels changed. */
export async function changePersonLabel(deps: WriteDeps, ctx: CallerContext, input: { personUuid: string; label: string }, add: boolean): Promise<void> {
  await write(deps, ctx, async (w) => {
    const person = await findPerson(w, ctx.orgUuid, input.personUuid);
    if (!person) throw fail('NOT_FOUND', 'Person');
    const changed = add
      ? await store.addPersonLabel(w.tx, { org_uuid: ctx.orgUuid, person_uuid: person.uuid, label: input.label })
      : await store.removePersonLabel(w.tx, ctx.orgUuid, person.uuid, input.label);
    if (!changed) return;
    const labels = (await store.listPersonLabels(w.tx, ctx.orgUuid)).filter((r) => r.person_uuid === person.uuid).map((r) => r.label);
    w.change({ entity: PERSON_LABELS_ENTITY, entityUuid: person.uuid, type: 'UPDATE', update: { personUuid: person.uuid, labels } });
  });
}
