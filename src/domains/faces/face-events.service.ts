import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { facetId, isRuuid, newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { sightingImageKey } from '../../footage/sighting-images.js';
import { write, type Actor } from '../../bus/write.js';
import { devicesNamed, findDevice } from '../devices/service.js';
import { FACE_EVENT_PAGE, type FaceEventRecord, type FindFaceEventsByOrgRequest } from './face-events.schemas.js';
import * as store from './face-events.store.js';
import { matchThreshold } from './face-matching.service.js';
import { findPerson, findPersonByName } from './service.js';
import type { FaceEventsTable } from './tables.js';

/** The stream's entity names of a face sighting and of a person's labels. */
export const FACE_EVENT_ENTITY = 'FACE_EVENT';
export const PERSON_LABELS_ENTITY = 'PERSON_LABELS';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type ReadDeps = Pick<Deps, 'store'>;

/**
 * A sighting as the API answers it: selectedPersonMatch is the person it is of (with the match's confidence
 * when the camera matched that person), topPersonMatches the camera's best match, reached the threshold or not.
 */
export function toFaceEvent(row: FaceEventsTable): FaceEventRecord {
  const confidence = row.match_confidence == null ? null : Number(row.match_confidence);
  const top = row.match_person_uuid ? { uuid: row.match_person_uuid, name: row.match_name ?? null, faceId: null, confidence } : null;
  const selected = row.person_uuid
    ? { uuid: row.person_uuid, name: row.face_name, faceId: null, confidence: row.match_person_uuid === row.person_uuid ? confidence : null }
    : null;
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
    // An unidentified face has no selected match: left out (the catalogue's match is not nullable).
    ...(selected && { selectedPersonMatch: selected }),
    topPersonMatches: top ? [top] : [],
    imageS3Key: sightingImageKey('face', row.org_uuid, row.uuid, 'image'),
    thumbnailS3Key: sightingImageKey('face', row.org_uuid, row.uuid, 'thumb'),
  };
}

/** The camera and instant of a face sighting of the organization (what its image shows); null when it has none such. */
export async function faceSightingAt(deps: ReadDeps, orgUuid: string, uuid: string): Promise<{ cameraUuid: string; timestampMs: number } | null> {
  const row = await store.findFaceEvent(deps.store.db, orgUuid, uuid);
  return row ? { cameraUuid: row.device_uuid, timestampMs: row.timestamp_ms } : null;
}

/**
 * A camera saw a face (the simulator's `face` event): one that looks like a person of the organization (named by
 * uuid or by name) with a confidence (default 1), or an unidentified face when no person is given. The face is
 * the person's only when the confidence reaches the organization's threshold (face-matching.service.ts);
 * below it the face is unidentified, its best match kept in topPersonMatches. Announced as a FACE_EVENT.
 */
export async function recordFaceSighting(
  deps: WriteDeps,
  actor: Actor,
  input: { cameraUuid: string; person?: string | null; confidence?: number; timestampMs?: number },
): Promise<FaceEventRecord> {
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, input.cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    let person = null;
    if (input.person != null) {
      person = (isRuuid(input.person) ? await findPerson(w, actor.orgUuid, input.person) : null) ?? (await findPersonByName(w, actor.orgUuid, input.person));
      if (!person) throw fail('NOT_FOUND', 'Person');
    }
    const confidence = input.confidence ?? 1;
    const matched = person && confidence >= (await matchThreshold(w, actor.orgUuid)) ? person : null;
    const row: FaceEventsTable = {
      uuid: newRuuid(),
      org_uuid: actor.orgUuid,
      device_uuid: camera.uuid,
      location_uuid: camera.locationUuid,
      person_uuid: matched?.uuid ?? null,
      face_name: matched?.name ?? null,
      timestamp_ms: input.timestampMs ?? w.nowMs,
      match_person_uuid: person?.uuid ?? null,
      match_name: person?.name ?? null,
      match_confidence: person ? confidence : null,
    };
    await store.insertFaceEvent(w.tx, row);
    const record = toFaceEvent(row);
    w.change({ entity: FACE_EVENT_ENTITY, entityUuid: row.uuid, type: 'CREATE', deviceUuid: camera.uuid, update: record, timestampMs: row.timestamp_ms });
    return record;
  });
}

/** Some cameras' sightings in [fromMs, toMs) (at most `limit`), as the stream and findFaceEventsByOrg carry them: what the seekpoints read. */
export async function faceEventsInSpan(
  source: ReadSource,
  q: { orgUuid: string; cameraUuids: readonly string[]; fromMs: number; toMs: number; limit: number },
): Promise<FaceEventRecord[]> {
  const rows = await store.listFaceEventsInSpan(dbOf(source), { ...q, deviceUuids: q.cameraUuids });
  return rows.map(toFaceEvent);
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

/** What findFaceEventsByOrg and findSimilarFaceEvents filter sightings by. */
export type FaceEventSearchFilter = NonNullable<FindFaceEventsByOrgRequest['searchFilter']>;

/**
 * A search filter as the store takes it: devices named by facet or not, people by uuid and by label, and the
 * time range (to the clock's now by default, from `defaultFrom(toMs)`).
 */
export async function eventFilter(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  f: Omit<FaceEventSearchFilter, 'hasEmbedding'>,
  defaultFrom: (toMs: number) => number,
): Promise<Omit<store.FaceEventFilter, 'after' | 'limit'>> {
  const toMs = instant(f.timestampFilter?.rangeEnd, 'rangeEnd') ?? deps.clock.now();
  const fromMs = instant(f.timestampFilter?.rangeStart, 'rangeStart') ?? defaultFrom(toMs);
  if (fromMs > toMs) throw fail('INVALID_VALUE', 'timestampFilter: rangeStart must not be after rangeEnd');
  let personUuids: string[] | null = f.personUuids?.length ? [...f.personUuids] : null;
  if (f.labels?.length) {
    const labelled = await store.peopleWithLabels(deps.store.db, ctx.orgUuid, f.labels);
    personUuids = personUuids ? personUuids.filter((p) => labelled.includes(p)) : labelled;
  }
  return {
    deviceUuids: await devicesNamed(deps, ctx.orgUuid, f.deviceUuids),
    locationUuids: f.locationUuids?.length ? f.locationUuids : null,
    personUuids,
    faceNames: f.faceNames?.length ? f.faceNames : null,
    nameContains: f.faceNameContains ? f.faceNameContains.toLowerCase() : null,
    hasName: f.hasName ?? null,
    fromMs,
    toMs,
  };
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
  const filter = await eventFilter(deps, ctx, f, (toMs) => toMs - WEEK_MS);
  let after = null;
  if (page.lastEvaluatedKey != null) {
    const m = KEY.exec(page.lastEvaluatedKey);
    if (!m) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
    after = { timestampMs: Number(m[1]), uuid: m[2] };
  }
  const max = page.maxPageSize ?? FACE_EVENT_PAGE.default;
  // Every stored sighting has an embedding, so hasEmbedding false matches none.
  if (f.hasEmbedding === false) return { faceEvents: [], lastEvaluatedKey: null };
  const rows = await store.listFaceEvents(deps.store.db, ctx.orgUuid, { ...filter, after, limit: max + 1 });
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
