import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { isRuuid } from '../../ids.js';
import { changePersonLabel, findFaceEvents, findPersonLabels } from './face-events.service.js';
import type { FaceEventRecord } from './face-events.schemas.js';
import { toUploadRecord } from './records.js';
import { findPerson, findPersonByName, listPeople } from './service.js';
import * as store from './store.js';

/**
 * The platform's older face API (`/api/face/*`), which its examples still call, answered from the same people,
 * labels, sightings and uploads as `/api/faceRecognition/*`: a face's name is its person's name.
 */
type ReadDeps = Pick<Deps, 'store' | 'clock'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The most sightings one call of the older API answers. */
export const LEGACY_FACE_EVENTS_MAX = 1000;

/** A sighting as the older API carries it: the name and thumbnail key are strings ('' when unknown). */
export function legacyFaceEvent(e: FaceEventRecord) {
  return {
    uuid: e.uuid,
    orgUuid: e.orgUuid,
    deviceUuid: e.deviceUuid,
    locationUuid: e.locationUuid,
    eventTimestamp: e.eventTimestamp,
    personUuid: e.personUuid ?? null,
    faceName: e.faceName ?? '',
    thumbnailS3Key: e.thumbnailS3Key ?? '',
    imageS3Key: e.imageS3Key ?? '',
  };
}

/** `face/getRecentFaceEventsV2`: sightings in the interval (default: the last day), newest first; types NAMED / UNNAMED narrow them. */
export async function recentFaceEvents(
  deps: ReadDeps,
  ctx: CallerContext,
  input: { startMs?: number | null; endMs?: number | null; types?: readonly string[] | null; faceName?: string | null },
) {
  const end = input.endMs ?? deps.clock.now();
  const start = input.startMs ?? end - 86_400_000;
  if (start > end) throw fail('INVALID_VALUE', 'interval: start must not be after end');
  const types = new Set((input.types ?? []).map((t) => t.toUpperCase()));
  const hasName = types.has('NAMED') && !types.has('UNNAMED') ? true : types.has('UNNAMED') && !types.has('NAMED') ? false : undefined;
  const { faceEvents } = await findFaceEvents(deps, ctx, {
    searchFilter: {
      timestampFilter: { rangeStart: new Date(start).toISOString(), rangeEnd: new Date(end).toISOString() },
      ...(hasName !== undefined ? { hasName } : {}),
      ...(input.faceName ? { faceNames: [input.faceName] } : {}),
    },
    pageRequest: { maxPageSize: LEGACY_FACE_EVENTS_MAX },
  });
  return faceEvents.map(legacyFaceEvent);
}

/** The person a face identifier names: its uuid or its name. */
async function personOf(deps: Pick<Deps, 'store'>, ctx: CallerContext, faceIdentifier: string) {
  const person =
    (isRuuid(faceIdentifier) ? await findPerson(deps, ctx.orgUuid, faceIdentifier) : null) ?? (await findPersonByName(deps, ctx.orgUuid, faceIdentifier));
  if (!person) throw fail('NOT_FOUND', 'Face');
  return person;
}

/** `face/addFaceLabel` / `removeFaceLabel`: a label of the person the face identifier names. */
export async function changeFaceLabel(deps: WriteDeps, ctx: CallerContext, input: { faceIdentifier: string; label: string }, add: boolean): Promise<void> {
  const person = await personOf(deps, ctx, input.faceIdentifier);
  await changePersonLabel(deps, ctx, { personUuid: person.uuid, label: input.label }, add);
}

/** `face/getFaceLabelsForOrg`: every labelled person's labels, by the person's name. */
export async function faceLabelsByName(deps: ReadDeps, ctx: CallerContext): Promise<Record<string, string[]>> {
  const [labels, people] = await Promise.all([findPersonLabels(deps, ctx), listPeople(deps, ctx)]);
  const names = new Map(people.map((p) => [p.uuid, p.name]));
  const answer: Record<string, string[]> = {};
  for (const [personUuid, list] of Object.entries(labels)) {
    const name = names.get(personUuid);
    if (name !== undefined) answer[name] = [...(answer[name] ?? []), ...list];
  }
  return answer;
}

/** `face/getUploadedFaces`: the organization's most recent uploads, newest first, each named by its file's person. */
export async function uploadedFaces(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const rows = await store.listRecentUploads(deps.store.db, ctx.orgUuid, LEGACY_FACE_EVENTS_MAX);
  return rows.map(toUploadRecord).map((u) => ({
    name: u.fileName.replace(/\.[^.]*$/, ''),
    fileName: u.fileName,
    success: u.success,
    errorMsg: u.errorMsg ?? '',
    personUuid: u.personUuid,
    faceId: u.faceId,
    transactionId: u.transactionId,
    createdAtMillis: u.createdAtMillis,
  }));
}
