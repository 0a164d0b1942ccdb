import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { findDetection, listNewestDetections, type Detection, type FootageBox } from '../../devices/cameras/footage-boxes.service.js';
import { devicesNamed, findDevices, listDevices, listDevicesAt, type DeviceRecord } from '../../devices/service.js';
import {
  attributesOf,
  boxOverlaps,
  colorsOf,
  cosineDistance,
  embed,
  MODEL_DIMENSIONS,
  parseSearchText,
  type Attributes,
  type SearchModel,
} from './attributes.js';
import {
  DEFAULT_RESULTS,
  DEFAULT_WINDOW_MS,
  MAX_RESULTS,
  MAX_SCANNED,
  type ListReidentificationEmbeddingsRequest,
  type SearchObjectsByColorRequest,
  type SearchReidentificationMatchesByEmbeddingRequest,
  type SearchSimilarObjectEmbeddingsByTextRequest,
  type SearchSimilarObjectEmbeddingsRequest,
} from './schemas.js';

/**
 * Object searches over the organization's detections (its cameras' footage bounding boxes): by colour, by
 * likeness to a detection or to a text, and the re-identification embeddings of people. The attributes and
 * embeddings are the stand-in of attributes.ts (docs/client-fidelity.md).
 */
type SearchDeps = Pick<Deps, 'store' | 'clock'>;

/** The cameras searched: those named (each the organization's), those of a location, or every camera. */
async function camerasSearched(deps: SearchDeps, ctx: CallerContext, refs: readonly string[] | null | undefined, locationUuid?: string | null) {
  const named = await devicesNamed(deps, ctx.orgUuid, refs);
  let cameras: DeviceRecord[] = named ? [...(await findDevices(deps, ctx.orgUuid, named)).values()] : await listDevices(deps, ctx.orgUuid, ['CAMERA']);
  if (locationUuid) {
    const there = new Set((await listDevicesAt(deps, ctx.orgUuid, locationUuid, ['CAMERA'])).map((d) => d.uuid));
    cameras = cameras.filter((c) => there.has(c.uuid));
  }
  return new Map(cameras.map((c) => [c.uuid, c]));
}

/** The window [from, to): `to` defaults to now, `from` to DEFAULT_WINDOW_MS before it. */
function windowOf(deps: SearchDeps, startMs: number | null | undefined, endMs: number | null | undefined): [number, number] {
  const to = endMs ?? deps.clock.now();
  const from = startMs ?? to - DEFAULT_WINDOW_MS;
  if (to <= from) throw fail('INVALID_VALUE', 'the end of the window must be after its start');
  return [from, to];
}

const TRUNCATED = `only the newest ${MAX_SCANNED} detections of the window were searched; ask for a shorter window or fewer cameras`;

/** The detections of the cameras in the window, newest first, and a warning when there were more than are read. */
async function detectionsIn(deps: SearchDeps, cameras: Map<string, DeviceRecord>, [from, to]: [number, number]) {
  const found = await listNewestDetections(deps, [...cameras.keys()], from, to, MAX_SCANNED + 1);
  return { detections: found.slice(0, MAX_SCANNED), warningMsg: found.length > MAX_SCANNED ? TRUNCATED : undefined };
}

/** `searchObjectsByColor`: the detections whose colours are among those asked (any colour when none is), newest first. */
export async function searchObjectsByColor(deps: SearchDeps, ctx: CallerContext, input: SearchObjectsByColorRequest) {
  const window = windowOf(deps, input.startTimeMs, input.endTimeMs);
  const cameras = await camerasSearched(deps, ctx, input.deviceFilter);
  const { detections, warningMsg } = await detectionsIn(deps, cameras, window);
  const colors = input.colorFilter && input.colorFilter.length > 0 ? new Set<string>(input.colorFilter) : null;
  const activities = input.objectTypeFilter && input.objectTypeFilter.length > 0 ? new Set<string>(input.objectTypeFilter) : null;
  const objects: FootageBox[] = [];
  for (const { box } of detections) {
    if (activities && !activities.has(box.a)) continue;
    const attributes = attributesOf(box);
    if (!attributes.objectType && attributes.colors.length === 0) continue;
    if (colors ? !colorsOf(attributes).some((c) => colors.has(c)) : attributes.colors.length === 0) continue;
    objects.push(box);
  }
  const more = objects.length > MAX_RESULTS ? `only the newest ${MAX_RESULTS} objects are answered` : undefined;
  return { objects: objects.slice(0, MAX_RESULTS), ...((warningMsg ?? more) ? { warningMsg: warningMsg ?? more } : {}) };
}

/** A detection as an embedding of a model, in the catalogue's GenericObjectEmbedding form. */
function embeddingOf(detection: Detection, attributes: Attributes, camera: DeviceRecord | undefined, model: SearchModel, vector: number[]) {
  const { box } = detection;
  return {
    embeddingId: String(detection.id),
    orgUuid: camera?.orgUuid ?? null,
    deviceUuid: facetId(detection.cameraUuid),
    locationUuid: camera?.locationUuid ?? null,
    model,
    objectType: attributes.objectType,
    objectId: box.objectId ?? null,
    stableTrackId: box.objectId ?? null,
    timestamp: box.ts,
    l: box.l,
    t: box.t,
    r: box.r,
    b: box.b,
    embedding: vector,
  };
}

interface SimilarQuery {
  model: SearchModel;
  objectTypes?: readonly string[] | null;
  region?: ReadonlyArray<readonly number[]> | null;
  threshold?: number | null;
  max: number;
  /** A detection not to answer (the one searched from). */
  exceptId?: number;
}

/** The detections of a kind searched, nearest to the query vector first, within the threshold (default: any likeness). */
function nearest(detections: Detection[], cameras: Map<string, DeviceRecord>, queryVector: number[], q: SimilarQuery) {
  const kinds = q.objectTypes && q.objectTypes.length > 0 ? new Set(q.objectTypes) : null;
  const region = q.region && q.region.length > 0 ? q.region.map((p) => [p[0]!, p[1]!] as const) : null;
  const dimensions = MODEL_DIMENSIONS[q.model];
  const matches = [];
  for (const detection of detections) {
    if (detection.id === q.exceptId) continue;
    const attributes = attributesOf(detection.box);
    if (!attributes.objectType || (kinds && !kinds.has(attributes.objectType))) continue;
    if (region && !boxOverlaps(detection.box, region)) continue;
    const vector = embed(attributes, dimensions);
    const distance = cosineDistance(queryVector, vector);
    if (q.threshold != null ? 1 - distance < q.threshold : distance >= 1) continue;
    const embedding = embeddingOf(detection, attributes, cameras.get(detection.cameraUuid), q.model, vector);
    matches.push({ distance, embedding, matchedEmbeddingId: embedding.embeddingId });
  }
  // Nearest first; among equals, the newest (detections come newest first and the sort is stable).
  return matches.sort((a, b) => a.distance - b.distance).slice(0, q.max);
}

type SimilarInput = Omit<SearchSimilarObjectEmbeddingsRequest, 'searchEmbeddingId'>;

async function searchSimilar(deps: SearchDeps, ctx: CallerContext, input: SimilarInput, query: Attributes, exceptId?: number) {
  const model = input.model ?? 'CLIP_512';
  const window = windowOf(deps, input.queryStartTimeMs, input.queryEndTimeMs);
  const cameras = await camerasSearched(deps, ctx, input.queryDeviceUuids);
  const { detections, warningMsg } = await detectionsIn(deps, cameras, window);
  const similarEmbeddings = nearest(detections, cameras, embed(query, MODEL_DIMENSIONS[model]), {
    model,
    objectTypes: input.objectTypeFilter,
    region: input.regionFilter,
    threshold: input.similarityThreshold,
    max: input.maxNumResults ?? DEFAULT_RESULTS,
    exceptId,
  });
  return { queryAllowed: true, similarEmbeddings, ...(warningMsg ? { warningMsg } : {}) };
}

/** `searchSimilarObjectEmbeddings`: the detections most like one found before (by its embeddingId). */
export async function searchSimilarObjectEmbeddings(deps: SearchDeps, ctx: CallerContext, input: SearchSimilarObjectEmbeddingsRequest) {
  const id = /^[1-9][0-9]{0,15}$/.test(input.searchEmbeddingId) ? Number(input.searchEmbeddingId) : NaN;
  const detection = await findDetection(deps, ctx.orgUuid, id);
  if (!detection) throw fail('NOT_FOUND', `Embedding ${input.searchEmbeddingId}`);
  return searchSimilar(deps, ctx, input, attributesOf(detection.box), detection.id);
}

/** `searchSimilarObjectEmbeddingsByText`: the detections most like what the text describes. */
export async function searchSimilarObjectEmbeddingsByText(deps: SearchDeps, ctx: CallerContext, input: SearchSimilarObjectEmbeddingsByTextRequest) {
  const query = parseSearchText(input.searchText);
  const answer = await searchSimilar(deps, ctx, input, query);
  if (!query.objectType && query.colors.length === 0 && query.words.length === 0)
    return { ...answer, warningMsg: 'the text names no object, colour or attribute to search for' };
  return answer;
}

const REID_MODEL: SearchModel = 'REIDENTIFICATION_NET';

/** The people seen by the cameras searched in the window, newest first. */
async function peopleSeen(deps: SearchDeps, ctx: CallerContext, input: ListReidentificationEmbeddingsRequest) {
  const window = windowOf(deps, input.startTimestampMs, input.endTimestampMs);
  const cameras = await camerasSearched(deps, ctx, input.deviceUuids, input.locationUuid);
  const { detections, warningMsg } = await detectionsIn(deps, cameras, window);
  return { cameras, people: detections.filter((d) => attributesOf(d.box).objectType === 'MOTION_HUMAN'), warningMsg };
}

/** `listReidentificationEmbeddings`: each person seen, with its re-identification vector. */
export async function listReidentificationEmbeddings(deps: SearchDeps, ctx: CallerContext, input: ListReidentificationEmbeddingsRequest) {
  const { cameras, people, warningMsg } = await peopleSeen(deps, ctx, input);
  const embeddings = people.slice(0, input.limit ?? DEFAULT_RESULTS).map((d) => {
    const attributes = attributesOf(d.box);
    return embeddingOf(d, attributes, cameras.get(d.cameraUuid), REID_MODEL, embed(attributes, MODEL_DIMENSIONS[REID_MODEL]));
  });
  return { embeddings, ...(warningMsg ? { warningMsg } : {}) };
}

/** `searchReidentificationMatchesByEmbedding`: the people seen nearest to a re-identification vector. */
export async function searchReidentificationMatchesByEmbedding(deps: SearchDeps, ctx: CallerContext, input: SearchReidentificationMatchesByEmbeddingRequest) {
  const dimensions = MODEL_DIMENSIONS[REID_MODEL];
  if (input.searchEmbedding.length !== dimensions) throw fail('INVALID_VALUE', `searchEmbedding: a ${REID_MODEL} vector has ${dimensions} values`);
  const { cameras, people, warningMsg } = await peopleSeen(deps, ctx, input);
  const matches = nearest(people, cameras, input.searchEmbedding, { model: REID_MODEL, max: input.limit ?? DEFAULT_RESULTS });
  return { matches, ...(warningMsg ? { warningMsg } : {}) };
}
