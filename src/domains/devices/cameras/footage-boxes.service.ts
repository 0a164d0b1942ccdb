import type { Static } from 'typebox';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId } from '../../../ids.js';
import { findDevices } from '../service.js';
import { write, type Actor } from '../../../bus/write.js';
import { findCamera } from './service.js';
import { FootageBoundingBox } from './footage-boxes.schemas.js';
import * as store from './footage-boxes.store.js';

export type FootageBox = Static<typeof FootageBoundingBox>;

/** The FOOTAGE_BOUNDING_BOX change: the boxes one request stored for a camera. */
export interface FootageBoxesChange {
  cameraUuid: string;
  footageBoundingBoxes: FootageBox[];
}

const PERMYRIAD_MAX = 10_000;
/** A read answers at most this many boxes, oldest first, and says so in warningMsg when there were more. */
export const MAX_BOXES_PER_READ = 10_000;

/** Why a box cannot be stored, or null: ts an instant, edges within 0..10000, l < r and t < b. */
function boxProblem(box: FootageBox, path: string): string | null {
  if (box.ts <= 0) return `${path}.ts: must be epoch milliseconds`;
  for (const edge of ['l', 't', 'r', 'b'] as const) {
    if (box[edge] < 0 || box[edge] > PERMYRIAD_MAX) return `${path}.${edge}: must be within 0..${PERMYRIAD_MAX}`;
  }
  if (box.l >= box.r) return `${path}: l must be < r`;
  if (box.t >= box.b) return `${path}: t must be < b`;
  return null;
}

const BOX_FIELDS = Object.keys(FootageBoundingBox.properties) as (keyof FootageBox)[];

/** The box as stored and answered: its declared fields that carry a value (a request's extra fields are dropped). */
function storedBox(box: FootageBox): FootageBox {
  return Object.fromEntries(BOX_FIELDS.filter((k) => box[k] != null).map((k) => [k, box[k]])) as FootageBox;
}

async function callersCamera(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>, cameraUuid: string) {
  const camera = await findCamera(deps, ctx.orgUuid, cameraUuid);
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  return camera;
}

/** `createFootageBoundingBoxes`: stores every box of the request, or none when one is wrong. */
export async function createFootageBoundingBoxes(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: Actor,
  input: { cameraUuid: string; footageBoundingBoxes: FootageBox[] },
): Promise<void> {
  for (const [i, box] of input.footageBoundingBoxes.entries()) {
    const problem = boxProblem(box, `footageBoundingBoxes[${i}]`);
    if (problem) throw fail('INVALID_VALUE', problem);
  }
  const camera = await callersCamera(deps, ctx, input.cameraUuid);
  const boxes = input.footageBoundingBoxes.map(storedBox);
  await write(deps, ctx, async (w) => {
    const rows = boxes.map((box) => ({ org_uuid: ctx.orgUuid, camera_uuid: camera.uuid, ts: box.ts, box: JSON.stringify(box) }));
    await store.insertBoxes(w.tx, rows);
    w.change({
      entity: 'FOOTAGE_BOUNDING_BOX',
      entityUuid: camera.uuid,
      deviceUuid: camera.uuid,
      type: 'CREATE',
      update: { cameraUuid: camera.uuid, footageBoundingBoxes: boxes },
    });
  });
}

/** `getFootageBoundingBoxes`: a camera's boxes from startTime (epoch s) for duration seconds, oldest first. */
export async function getFootageBoundingBoxes(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { cameraUuid: string; startTime: number; duration: number },
): Promise<{ footageBoundingBoxes: FootageBox[]; warningMsg?: string }> {
  const camera = await callersCamera(deps, ctx, input.cameraUuid);
  const fromMs = input.startTime * 1000;
  const found = await store.listBoxes(deps.store.db, camera.uuid, fromMs, fromMs + input.duration * 1000, MAX_BOXES_PER_READ + 1);
  const boxes = found.slice(0, MAX_BOXES_PER_READ).map((text) => JSON.parse(text) as FootageBox);
  return found.length > MAX_BOXES_PER_READ
    ? { footageBoundingBoxes: boxes, warningMsg: `only the first ${MAX_BOXES_PER_READ} boxes of the range are answered; ask for a shorter range` }
    : { footageBoundingBoxes: boxes };
}

/**
 * The boxes of a camera with fromMs <= ts < toMs, oldest first, at most MAX_BOXES_PER_READ: for another domain
 * that has already checked that the camera is the caller's (a policy alert's details, for instance).
 */
export async function listCameraBoxes(source: ReadSource, cameraUuid: string, fromMs: number, toMs: number): Promise<FootageBox[]> {
  const found = await store.listBoxes(dbOf(source), cameraUuid, fromMs, toMs, MAX_BOXES_PER_READ);
  return found.map((text) => JSON.parse(text) as FootageBox);
}

/**
 * `getFootageBoundingBoxesForMultiple`: the boxes of several cameras from startTimeSec for durationSec, by
 * instant (epoch ms) and then by camera facet id: one box per camera and instant (the first stored). Every
 * camera must be the organization's; at most MAX_BOXES_PER_READ boxes are read.
 */
export async function getFootageBoundingBoxesForMultiple(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { cameraUuids: readonly string[]; startTimeSec: number; durationSec: number },
): Promise<{ footageBoundingBoxMap: Record<string, { deviceMap: Record<string, FootageBox> }>; warningMsg?: string }> {
  const uuids = [...new Set(input.cameraUuids.map((id) => deviceOfFacet(id) ?? id))];
  const cameras = await findDevices(deps, ctx.orgUuid, uuids, ['CAMERA']);
  if (uuids.some((u) => !cameras.has(u))) throw fail('NOT_FOUND', 'Camera');
  const fromMs = input.startTimeSec * 1000;
  const rows = await store.listBoxesOfCameras(deps.store.db, uuids, fromMs, fromMs + input.durationSec * 1000, MAX_BOXES_PER_READ + 1);
  const map: Record<string, { deviceMap: Record<string, FootageBox> }> = {};
  for (const row of rows.slice(0, MAX_BOXES_PER_READ)) {
    const box = JSON.parse(row.box) as FootageBox;
    const at = (map[String(box.ts)] ??= { deviceMap: {} });
    at.deviceMap[facetId(row.camera_uuid)] ??= box;
  }
  return rows.length > MAX_BOXES_PER_READ
    ? { footageBoundingBoxMap: map, warningMsg: `only the first ${MAX_BOXES_PER_READ} boxes of the range are answered; ask for a shorter range` }
    : { footageBoundingBoxMap: map };
}

/** A stored box as a detection: its row id, its camera and the box. */
export interface Detection {
  id: number;
  cameraUuid: string;
  box: FootageBox;
}

const toDetection = (row: store.BoxRow): Detection => ({ id: Number(row.id), cameraUuid: row.camera_uuid, box: JSON.parse(row.box) as FootageBox });

/**
 * The detections of cameras (already checked to be the caller's) with fromMs <= ts < toMs, newest first, at most
 * `limit`: what the object searches read.
 */
export async function listNewestDetections(
  source: ReadSource,
  cameraUuids: readonly string[],
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<Detection[]> {
  return (await store.listNewestBoxesOfCameras(dbOf(source), cameraUuids, fromMs, toMs, limit)).map(toDetection);
}

/** One of the organization's detections by id, or null (another organization's answers as unknown). */
export async function findDetection(source: ReadSource, orgUuid: string, id: number): Promise<Detection | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await store.findOrgBox(dbOf(source), orgUuid, id);
  return row ? toDetection(row) : null;
}
