import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ChangeEvent } from '../../../store/change-event.js';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { renderFrame, renderClip } from '../../../footage/render.js';
import { renderTimelapse } from '../../../footage/render-timelapse.js';
import { mediaFile, storeMedia, type MediaPart } from '../../../footage/storage.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { FRAME_SIZE } from '../../devices/media-uris/service.js';
import { findDevices } from '../../devices/service.js';
import { clipRecord, MEDIA_LIMITS, SAVED_CLIP_ENTITY } from './service.js';
import * as store from './store.js';
import { CLIP_KINDS, type ClipStatus, type SavedClipsTable } from '../tables.js';
import { sampledWindows } from '../timelapses/timelapse-sampling.js';
import { TIMELAPSE } from '../timelapses/schemas.js';
import { sharedTimelapses, TIMELAPSE_ENTITY, timelapseRecord, timelapseSettings, timelapseTimeZone } from '../timelapses/service.js';

type RendererDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config' | 'log'>;

/** A spliced clip's video: the simulated camera's footage at a quarter of its full size, five frames a second. */
export const SPLICE_VIDEO = { width: 480, height: 270, fps: 5 };
/** Pending splices picked up when an instance starts. */
const STARTUP_BATCH = 1000;
/**
 * A render under way moves the clip at least this often (ffmpeg is stopped after a minute), so a splice left
 * UPLOADING or RENDERING for longer lost its instance: a starting instance marks it FAILED (retrySplice takes it).
 */
export const STALLED_RENDER_MS = 5 * 60_000;

/**
 * Renders spliced clips, spliced frames and timelapses: each moves INITIATING -> UPLOADING (the camera's footage is
 * rendered by ffmpeg: an MP4, a JPEG, or the timelapse's MP4 or GIF) -> RENDERING (the file is stored on the media
 * host and hashed) -> COMPLETE, or FAILED when the render broke.
 * Every move is conditional on the status and the render attempt, so that a cancel or a retry meanwhile (or
 * another instance that claimed the clip first) wins, and this render's work is dropped. One render at a time
 * per instance; the queue is fed by the bus (every instance hears a new splice, the first claim wins) and, on
 * start, by the splices still waiting.
 */
export function startClipRenderer(deps: RendererDeps): { stop(): Promise<void> } {
  const queue: Array<{ orgUuid: string; uuid: string }> = [];
  const queued = new Set<string>();
  let running: Promise<void> | null = null;
  let stopped = false;

  const enqueue = (orgUuid: string, uuid: string) => {
    if (stopped || queued.has(uuid)) return;
    queued.add(uuid);
    queue.push({ orgUuid, uuid });
    pump();
  };
  const pump = () => {
    if (running || stopped) return;
    const next = queue.shift();
    if (!next) return;
    running = renderOne(deps, next.orgUuid, next.uuid)
      .catch((err) => deps.log.error({ err, clip: next.uuid }, 'clip render failed'))
      .finally(() => {
        queued.delete(next.uuid);
        running = null;
        pump();
      });
  };
  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.type === 'DELETE') return;
    const waiting =
      (event.entity === SAVED_CLIP_ENTITY && (event.update as { status?: ClipStatus }).status === 'INITIATING') ||
      (event.entity === TIMELAPSE_ENTITY && (event.update as { status?: { state?: string } }).status?.state === 'INITIATED');
    if (waiting) enqueue(event.orgUuid, event.entityUuid);
  });
  void store
    .listPendingRenders(deps.store.db, STARTUP_BATCH)
    .then((rows) => rows.forEach((r) => enqueue(r.org_uuid, r.uuid)))
    .catch((err) => deps.log.error({ err }, 'clip renderer: reading the pending splices failed'));
  void failStalledRenders(deps).catch((err) => deps.log.error({ err }, 'clip renderer: failing the stalled splices failed'));
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      queue.length = 0;
      await running;
    },
  };
}

/** Announces a clip's change: a saved clip's, or a timelapse's (as the timelapse operations answer it). */
async function announce(deps: RendererDeps, w: WriteScope, row: SavedClipsTable): Promise<void> {
  if (row.kind === 'TIMELAPSE') {
    const shared = (await sharedTimelapses(deps, w, row.org_uuid)).has(row.uuid);
    w.change({ entity: TIMELAPSE_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: timelapseRecord(row, shared) });
  } else {
    w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: clipRecord(row) });
  }
}

/** One conditional move of the clip, announced; false when the clip was no longer where this render left it. */
async function move(deps: RendererDeps, row: SavedClipsTable, from: ClipStatus, values: Partial<SavedClipsTable> & { status: ClipStatus }): Promise<boolean> {
  return write(deps, systemActor(row.org_uuid, 'clip.render'), async (w) => {
    const next = { ...values, updated_at_ms: w.nowMs };
    if (!(await store.moveClip(w.tx, row.org_uuid, row.uuid, { statuses: [from], attempt: row.render_attempt }, next))) return false;
    await announce(deps, w, { ...row, ...next });
    Object.assign(row, next);
    return true;
  });
}

/** What a render makes: the file, its type and its picture's size. */
interface Rendered {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/** Renders the clip's media by its kind, from its cameras as they are now (a camera gone is left out). */
async function renderMedia(deps: RendererDeps, row: SavedClipsTable): Promise<Rendered> {
  const sources = row.kind === 'TIMELAPSE' ? timelapseSettings(row).cameras : [row.device_uuid];
  const found = await findDevices(deps, row.org_uuid, sources, ['CAMERA']);
  const cameras = sources.flatMap((uuid) => (found.has(uuid) ? [found.get(uuid)!] : []));
  if (cameras.length === 0) throw new Error('the camera is gone');
  const picture = { cameraName: cameras[0].name, atMs: row.timestamp_ms };
  if (row.kind === 'FRAME') return { bytes: await renderFrame({ ...picture, ...FRAME_SIZE }), contentType: 'image/jpeg', ...FRAME_SIZE };
  if (row.kind === 'CLIP')
    return { bytes: await renderClip({ ...picture, durationSec: row.duration_sec, ...SPLICE_VIDEO }), contentType: 'video/mp4', ...SPLICE_VIDEO };
  const settings = timelapseSettings(row);
  const size = { width: TIMELAPSE.width, height: TIMELAPSE.height };
  const bytes = await renderTimelapse({
    cameraNames: cameras.map((c) => c.name),
    startMs: row.timestamp_ms,
    windows: sampledWindows(row.timestamp_ms, settings.stopMs, settings, await timelapseTimeZone(deps, cameras[0])),
    framesPerCamera: Math.max(1, Math.round((row.duration_sec * TIMELAPSE.fps) / cameras.length)),
    fps: TIMELAPSE.fps,
    ...size,
    format: settings.format,
    text: { name: settings.drawCameraDetails, clock: settings.drawTimestamp },
  });
  return { bytes, contentType: settings.format === 'GIF' ? 'image/gif' : 'video/mp4', ...size };
}

async function renderOne(deps: RendererDeps, orgUuid: string, uuid: string): Promise<void> {
  const row = await store.findClip(deps.store.db, orgUuid, uuid, CLIP_KINDS);
  if (!row || row.spliced !== 1 || row.status !== 'INITIATING') return;
  if (!(await move(deps, row, 'INITIATING', { status: 'UPLOADING' }))) return;
  let rendered: Rendered;
  try {
    rendered = await renderMedia(deps, row);
  } catch (err) {
    deps.log.warn({ err, clip: uuid }, 'clip render: the footage could not be rendered');
    await move(deps, row, 'UPLOADING', { status: 'FAILED' });
    return;
  }
  if (!(await move(deps, row, 'UPLOADING', { status: 'RENDERING' }))) return;
  // A frame is its own thumbnail.
  const parts: MediaPart[] = row.kind === 'FRAME' ? ['video', 'thumbnail'] : ['video'];
  const files = parts.map((part) => mediaFile(deps.config.dataDir, orgUuid, uuid, part));
  const stored = await Promise.all(files.map((file) => storeMedia(file, Readable.from([rendered.bytes]), MEDIA_LIMITS.video))).catch(async (err: unknown) => {
    deps.log.warn({ err, clip: uuid }, 'clip render: storing the media failed');
    await move(deps, row, 'RENDERING', { status: 'FAILED' });
    return null;
  });
  if (!stored) return;
  const details = { ...(JSON.parse(row.details) as Record<string, unknown>), videoResolution: { width: rendered.width, height: rendered.height } };
  const completed = await move(deps, row, 'RENDERING', {
    status: 'COMPLETE',
    sha256_hex: stored[0].sha256Hex,
    byte_count: stored[0].byteCount,
    video_content_type: rendered.contentType,
    ...(row.kind === 'FRAME' ? { thumbnail_content_type: rendered.contentType } : {}),
    details: JSON.stringify(details),
  });
  // Cancelled (or deleted) while the media was stored: the files are not the clip's.
  if (!completed) await Promise.all(files.map((file) => rm(file, { force: true })));
}

/** Marks FAILED the splices whose render stopped with its instance (see STALLED_RENDER_MS). */
async function failStalledRenders(deps: RendererDeps): Promise<void> {
  for (const row of await store.listStalledRenders(deps.store.db, deps.clock.now() - STALLED_RENDER_MS, STARTUP_BATCH)) {
    await move(deps, row, row.status, { status: 'FAILED' });
  }
}
