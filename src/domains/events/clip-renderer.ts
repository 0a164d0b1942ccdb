import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ChangeEvent } from '../../bus/events.js';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { renderClip } from '../../media/render.js';
import { mediaFile, storeMedia } from '../../media/storage.js';
import { write } from '../../store/write.js';
import { findDevice } from '../devices/service.js';
import { clipRecord, MEDIA_LIMITS, SAVED_CLIP_ENTITY } from './clips.service.js';
import * as store from './clips.store.js';
import type { ClipStatus, SavedClipsTable } from './tables.js';

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
 * Renders spliced clips: each moves INITIATING -> UPLOADING (the camera's footage is rendered by ffmpeg) ->
 * RENDERING (the MP4 is stored on the media host and hashed) -> COMPLETE, or FAILED when the render broke.
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
    if (event.entity !== SAVED_CLIP_ENTITY || event.type === 'DELETE') return;
    const clip = event.update as { status?: ClipStatus };
    if (clip.status === 'INITIATING') enqueue(event.orgUuid, event.entityUuid);
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

/** One conditional move of the clip, announced; false when the clip was no longer where this render left it. */
async function move(deps: RendererDeps, row: SavedClipsTable, from: ClipStatus, values: Partial<SavedClipsTable> & { status: ClipStatus }): Promise<boolean> {
  return write(deps, systemActor(row.org_uuid, 'clip.render'), async (w) => {
    const next = { ...values, updated_at_ms: w.nowMs };
    if (!(await store.moveClip(w.tx, row.org_uuid, row.uuid, { statuses: [from], attempt: row.render_attempt }, next))) return false;
    w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: clipRecord({ ...row, ...next }) });
    Object.assign(row, next);
    return true;
  });
}

async function renderOne(deps: RendererDeps, orgUuid: string, uuid: string): Promise<void> {
  const row = await store.findClip(deps.store.db, orgUuid, uuid);
  if (!row || row.spliced !== 1 || row.status !== 'INITIATING') return;
  const camera = await findDevice(deps, orgUuid, row.device_uuid, ['CAMERA']);
  if (!(await move(deps, row, 'INITIATING', { status: 'UPLOADING' }))) return;
  let video: Buffer;
  try {
    if (!camera) throw new Error('the camera is gone');
    video = await renderClip({ cameraName: camera.name, atMs: row.timestamp_ms, durationSec: row.duration_sec, ...SPLICE_VIDEO });
  } catch (err) {
    deps.log.warn({ err, clip: uuid }, 'clip render: the footage could not be rendered');
    await move(deps, row, 'UPLOADING', { status: 'FAILED' });
    return;
  }
  if (!(await move(deps, row, 'UPLOADING', { status: 'RENDERING' }))) return;
  const file = mediaFile(deps.config.dataDir, orgUuid, uuid, 'video');
  const stored = await storeMedia(file, Readable.from([video]), MEDIA_LIMITS.video).catch(async (err: unknown) => {
    deps.log.warn({ err, clip: uuid }, 'clip render: storing the video failed');
    await move(deps, row, 'RENDERING', { status: 'FAILED' });
    return null;
  });
  if (!stored) return;
  const details = { ...(JSON.parse(row.details) as Record<string, unknown>), videoResolution: { width: SPLICE_VIDEO.width, height: SPLICE_VIDEO.height } };
  const completed = await move(deps, row, 'RENDERING', {
    status: 'COMPLETE',
    sha256_hex: stored.sha256Hex,
    byte_count: stored.byteCount,
    video_content_type: 'video/mp4',
    details: JSON.stringify(details),
  });
  // Cancelled (or deleted) while the video was stored: the file is not the clip's.
  if (!completed) await rm(file, { force: true });
}

/** Marks FAILED the splices whose render stopped with its instance (see STALLED_RENDER_MS). */
async function failStalledRenders(deps: RendererDeps): Promise<void> {
  for (const row of await store.listStalledRenders(deps.store.db, deps.clock.now() - STALLED_RENDER_MS, STARTUP_BATCH)) {
    await move(deps, row, row.status, { status: 'FAILED' });
  }
}
