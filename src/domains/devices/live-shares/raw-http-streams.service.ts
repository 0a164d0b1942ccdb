import { timingSafeEqual } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId, randomToken } from '../../../ids.js';
import { maskSecret } from '../../../secrets.js';
import { write } from '../../../bus/write.js';
import { findCamera } from '../cameras/service.js';
import type { RawHttpStreamRecord } from './raw-http-streams.schemas.js';
import * as store from './raw-http-streams.store.js';
import type { StreamType } from './schemas.js';
import { findDevice, type DeviceRecord } from '../service.js';
import type { DeviceReferenceCleaner } from '../device-references.js';
import type { RawHttpStreamsTable } from '../tables.js';

/**
 * Raw HTTP streams: a camera's live video at a path of the media host, for a recorder or player that takes a
 * plain URL. Each stream has a random path and a secret of its own: the secret is sealed with the server's key,
 * shown in full only in the answer that creates the stream, and masked everywhere after. The media host serves
 * the stream to a request that presents it (the `secret` query parameter, or the password of HTTP Basic
 * authentication) while the stream and its camera exist.
 */
type StreamDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;

export const RAW_STREAM_FILES = { video: 'video.ts', low: 'video-low.ts' } as const;
const rawPath = (customPathPart: string, file: string) => `/media/raw/${customPathPart}/${file}`;
const withSecret = (path: string, secret: string | null) => (secret === null ? path : `${path}?secret=${encodeURIComponent(secret)}`);
const sealIdentity = (row: Pick<RawHttpStreamsTable, 'org_uuid' | 'custom_path_part'>) => `raw-http-stream:${row.org_uuid}:${row.custom_path_part}`;

function toRecord(row: RawHttpStreamsTable, shownSecret: string | null): RawHttpStreamRecord {
  const video = rawPath(row.custom_path_part, RAW_STREAM_FILES.video);
  const low = rawPath(row.custom_path_part, RAW_STREAM_FILES.low);
  return {
    orgUuid: row.org_uuid,
    deviceUuid: facetId(row.device_uuid),
    deviceType: 'CAMERA',
    name: row.name,
    streamType: row.stream_type as StreamType,
    customPathPart: row.custom_path_part,
    createdAtMs: row.created_at_ms,
    createdBy: row.created_by,
    videoPath: video,
    videoLowResPath: low,
    audioPath: null,
    lanVideoUrl: withSecret(video, shownSecret),
    lanVideoLowResUrl: withSecret(low, shownSecret),
    lanAudioUrl: null,
  };
}

/** A record as lists and the stream show it: the secret masked (its last characters only). */
function maskedRecord(deps: Pick<Deps, 'secrets'>, row: RawHttpStreamsTable): RawHttpStreamRecord {
  return toRecord(row, maskSecret(deps.secrets.open(row.secret_sealed, sealIdentity(row))));
}

async function cameraOf(deps: Pick<Deps, 'store'>, orgUuid: string, ref: string): Promise<DeviceRecord> {
  const camera = await findCamera(deps, orgUuid, ref);
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  return camera;
}

/** createRawHttpStream: a new path and secret for the camera; the answer's URLs carry the secret, once. */
export async function createRawHttpStream(
  deps: StreamDeps,
  ctx: CallerContext,
  input: { deviceUuid: string; rawStreamName?: string | null; streamType?: StreamType | null },
) {
  return write(deps, ctx, async (w) => {
    const camera = await findCamera(w, ctx.orgUuid, input.deviceUuid);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    const secret = randomToken();
    const row: RawHttpStreamsTable = {
      custom_path_part: randomToken(96),
      org_uuid: ctx.orgUuid,
      device_uuid: camera.uuid,
      name: input.rawStreamName ?? `${camera.name} raw stream`,
      stream_type: input.streamType ?? 'USER',
      created_at_ms: w.nowMs,
      created_by: ctx.userUuid ?? ctx.apiKeyId,
      secret_sealed: '',
    };
    row.secret_sealed = deps.secrets.seal(secret, sealIdentity(row));
    await store.insertStream(w.tx, row);
    w.change({ entity: 'RAW_HTTP_STREAM', entityUuid: row.custom_path_part, type: 'CREATE', deviceUuid: camera.uuid, update: maskedRecord(deps, row) });
    const shown = toRecord(row, secret);
    return { lanVideoUrl: shown.lanVideoUrl, lanVideoLowResUrl: shown.lanVideoLowResUrl, lanAudioUrl: null };
  });
}

/** findAllRawHttpStreams: every stream of the organization, oldest first. */
export async function findAllRawHttpStreams(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext): Promise<RawHttpStreamRecord[]> {
  return (await store.listStreams(deps.store.db, ctx.orgUuid)).map((row) => maskedRecord(deps, row));
}

/** getRawHttpStreams: the camera's streams. */
export async function getRawHttpStreams(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext, deviceRef: string): Promise<RawHttpStreamRecord[]> {
  const camera = await cameraOf(deps, ctx.orgUuid, deviceRef);
  return (await store.listStreams(deps.store.db, ctx.orgUuid, camera.uuid)).map((row) => maskedRecord(deps, row));
}

/** deleteRawHttpStream: the path answers 404 at once, a stream being served included (it ends). */
export async function deleteRawHttpStream(deps: StreamDeps, ctx: CallerContext, input: { deviceUuid: string; customPathPart: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const camera = await findCamera(w, ctx.orgUuid, input.deviceUuid);
    const found = camera ? await store.findStreamByPath(w.tx, input.customPathPart) : undefined;
    const row = found && found.org_uuid === ctx.orgUuid && found.device_uuid === camera?.uuid ? found : undefined;
    if (!row || !(await store.deleteStream(w.tx, ctx.orgUuid, row.device_uuid, row.custom_path_part))) throw fail('NOT_FOUND', 'Raw HTTP stream');
    w.change({ entity: 'RAW_HTTP_STREAM', entityUuid: row.custom_path_part, type: 'DELETE', deviceUuid: row.device_uuid, update: maskedRecord(deps, row) });
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a raw stream's path answers: its camera, or why not (404 no such stream or camera, 401 no or wrong secret). */
export type RawStreamAccess = { kind: 'missing' | 'secret' } | { kind: 'open'; camera: DeviceRecord };

export async function openRawStream(deps: Pick<Deps, 'store' | 'secrets'>, customPathPart: string, secret: string | undefined): Promise<RawStreamAccess> {
  const row = await store.findStreamByPath(deps.store.db, customPathPart);
  if (!row) return { kind: 'missing' };
  if (!secret || !sameSecret(secret, deps.secrets.open(row.secret_sealed, sealIdentity(row)))) return { kind: 'secret' };
  const camera = await findDevice(deps, row.org_uuid, row.device_uuid, ['CAMERA']);
  return camera ? { kind: 'open', camera } : { kind: 'missing' };
}

/** A deleted camera takes its raw streams with it (deps.deviceReferences); a stream being served ends. */
export const rawStreamsForgetDevice =
  (deps: Pick<Deps, 'secrets'>): DeviceReferenceCleaner =>
  async (w, device) => {
    for (const row of await store.listStreams(w.tx, device.orgUuid, device.uuid)) {
      await store.deleteStream(w.tx, device.orgUuid, row.device_uuid, row.custom_path_part);
      w.change({ entity: 'RAW_HTTP_STREAM', entityUuid: row.custom_path_part, type: 'DELETE', deviceUuid: row.device_uuid, update: maskedRecord(deps, row) });
    }
  };
