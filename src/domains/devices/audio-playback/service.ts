import type { CallerContext } from '../../../context.js';
import type { Actor } from '../../../bus/write.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf, newRuuid } from '../../../ids.js';
import { toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { renderSpokenText } from '../../../footage/render-audio.js';
import { uploadKey, uploadedFiles } from '../../../footage/uploaded-files.js';
import { findDevice, listDevices, type DeviceRecord } from '../service.js';
import * as devices from '../store.js';
import { plainSpeech, speechDurationMs, ssmlSpeech } from './speech.js';
import * as store from './store.js';
import type { AudioUploadsTable } from './tables.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The longest text a clip is made from, and the longest clip. */
export const AUDIO_TEXT_LIMITS = { maxChars: 3000, maxDurationMs: 5 * 60_000 } as const;

/** Where the media host serves a clip (for the caller's organization). */
export const audioClipPath = (uuid: string) => `/media/audioclips/${uuid}`;

/** A clip as getAudioUploadMetadataForOrg answers it and the stream carries it. */
export interface AudioUploadRecord {
  uuid: string;
  orgUuid: string;
  displayName: string;
  description: string | null;
  audioPlaintext: string | null;
  audioSSML: string | null;
  voiceId: string | null;
  durationMs: number;
  mutable: boolean;
  s3ObjectKey: string;
}

const toRecord = (row: AudioUploadsTable): AudioUploadRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  displayName: row.display_name,
  description: row.description,
  audioPlaintext: row.audio_plaintext,
  audioSSML: row.audio_ssml,
  voiceId: row.voice_id,
  durationMs: row.duration_ms,
  mutable: true,
  s3ObjectKey: audioClipPath(row.uuid),
});

export interface AudioTextInput {
  audioPlaintext?: string | null;
  audioSSML?: string | null;
  displayName?: string | null;
  description?: string | null;
  voiceId?: string | null;
}

/**
 * `uploadAudioText`: makes a clip from plain text or SSML (one of them), rendered as Gatehouse's stand-in for a
 * voice (src/footage/render-audio.ts) and kept on the media storage. Invalid SSML is answered with `invalidSSML`
 * and keeps nothing; a render that fails, with `synthesisFailure`.
 */
export async function uploadAudioText(deps: WriteDeps & Pick<Deps, 'config'>, ctx: CallerContext, input: AudioTextInput) {
  const plain = input.audioPlaintext?.trim() || null;
  const ssml = input.audioSSML?.trim() || null;
  if (!plain === !ssml) throw fail('INVALID_VALUE', 'audioPlaintext: give the text as audioPlaintext or as audioSSML, one of them');
  const speech = ssml ? ssmlSpeech(ssml) : plainSpeech(plain!);
  if ('problem' in speech) return { error: true, errorMsg: `audioSSML: not valid SSML: ${speech.problem}`, invalidSSML: true };
  if (speech.words === 0) throw fail('INVALID_VALUE', `${ssml ? 'audioSSML' : 'audioPlaintext'}: there are no words to say`);
  const durationMs = speechDurationMs(speech);
  if (durationMs > AUDIO_TEXT_LIMITS.maxDurationMs)
    throw fail('INVALID_VALUE', `the text takes ${Math.round(durationMs / 1000)} s to say: at most ${AUDIO_TEXT_LIMITS.maxDurationMs / 1000} s`);
  let bytes: Buffer;
  try {
    bytes = await renderSpokenText({ durationMs });
  } catch (e) {
    return { error: true, errorMsg: `the clip could not be made: ${(e as Error).message.slice(0, 200)}`, synthesisFailure: true };
  }
  const uuid = newRuuid();
  const key = uploadKey(ctx.orgUuid, 'audio', uuid, 'ogg');
  const files = uploadedFiles(deps.config.dataDir);
  await files.write(key, bytes);
  try {
    await write(deps, ctx, async (w) => {
      const row: AudioUploadsTable = {
        uuid,
        org_uuid: ctx.orgUuid,
        display_name: input.displayName?.trim() || (plain ?? 'SSML clip').slice(0, 60),
        description: input.description ?? null,
        audio_plaintext: plain,
        audio_ssml: ssml,
        voice_id: input.voiceId ?? null,
        duration_ms: durationMs,
        media_key: key,
        created_at_ms: w.nowMs,
        updated_at_ms: w.nowMs,
      };
      await store.insertClip(w.tx, row);
      w.change({ entity: 'AUDIO_UPLOAD', entityUuid: uuid, type: 'CREATE', update: toRecord(row) });
    });
  } catch (e) {
    await files.remove(key);
    throw e;
  }
  return { uuid, invalidSSML: false, synthesisFailure: false, encodingFailure: false };
}

async function clipOf(source: ReadSource, orgUuid: string, uuid: string): Promise<AudioUploadsTable> {
  const row = await store.findClip(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `Audio upload ${uuid}`);
  return row;
}

export async function listAudioUploads(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<AudioUploadRecord[]> {
  return (await store.listClips(deps.store.db, ctx.orgUuid)).map(toRecord);
}

/** `updateAudioUploadMetadata`: the clip's name and description; the sound stays. */
export async function updateAudioUpload(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { audioUploadUuid: string; newDisplayName?: string | null; newDescription?: string | null },
) {
  const name = input.newDisplayName?.trim();
  if (input.newDisplayName != null && !name) throw fail('INVALID_VALUE', 'newDisplayName: must not be empty');
  await write(deps, ctx, async (w) => {
    const row = await clipOf(w, ctx.orgUuid, input.audioUploadUuid);
    const patch = {
      ...(name ? { display_name: name } : {}),
      ...(input.newDescription != null ? { description: input.newDescription } : {}),
      updated_at_ms: w.nowMs,
    };
    await store.updateClip(w.tx, row.uuid, patch);
    w.change({ entity: 'AUDIO_UPLOAD', entityUuid: row.uuid, type: 'UPDATE', update: toRecord({ ...row, ...patch }) });
  });
}

/** What an audio gateway is playing (its attributes.audioPlayback), until `untilMs`. */
export interface AudioPlayback {
  audioUploadUuid: string;
  startedAtMs: number;
  untilMs: number;
  playCount: number | null;
  loopDurationSec: number | null;
}

/** The clip a gateway is playing at an instant, or null. */
export function playbackAt(gateway: DeviceRecord, atMs: number): AudioPlayback | null {
  const p = gateway.attributes.audioPlayback as AudioPlayback | undefined;
  return p && p.untilMs > atMs ? p : null;
}

async function setPlayback(w: WriteScope, gateway: DeviceRecord, playback: AudioPlayback | null): Promise<void> {
  const attributes = { ...gateway.attributes };
  if (playback) attributes.audioPlayback = playback;
  else delete attributes.audioPlayback;
  await devices.updateDevice(w.tx, gateway.orgUuid, gateway.uuid, { attributes: toJson(attributes)!, updated_at_ms: w.nowMs });
  w.change({
    entity: 'AUDIO_GATEWAY',
    entityUuid: gateway.uuid,
    deviceUuid: gateway.uuid,
    type: 'UPDATE',
    update: { ...gateway, attributes, updatedAtMillis: w.nowMs },
  });
}

async function gatewayOf(w: WriteScope, orgUuid: string, field: string, ref: string): Promise<DeviceRecord> {
  const uuid = deviceUuidOf(ref);
  const gateway = uuid ? await findDevice(w, orgUuid, uuid, ['AUDIO_GATEWAY']) : null;
  if (!gateway) throw fail('NOT_FOUND', `${field}: Audio gateway ${ref}`);
  return gateway;
}

/**
 * `playAudioUpload`: each gateway named plays the clip `playCount` times (default once), or loops it for
 * `loopDurationSec`; what it plays is its state (and its live audio on the media host) until then, announced.
 * `success` is whether every gateway took it: an offline one cannot.
 */
export async function playAudioUpload(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { audioUploadUuid: string; audioGatewayUuids: string[]; playCount?: number | null; loopDurationSec?: number | null },
): Promise<boolean> {
  if (input.playCount != null && input.loopDurationSec != null) throw fail('INVALID_VALUE', 'playCount: give playCount or loopDurationSec, not both');
  return write(deps, ctx, async (w) => {
    const clip = await clipOf(w, ctx.orgUuid, input.audioUploadUuid);
    let all = true;
    for (const [i, ref] of input.audioGatewayUuids.entries()) {
      const gateway = await gatewayOf(w, ctx.orgUuid, `audioGatewayUuids[${i}]`, ref);
      if (gateway.connectionStatus === 'RED') {
        all = false;
        continue;
      }
      const loop = input.loopDurationSec ?? null;
      const count = loop ? null : (input.playCount ?? 1);
      const untilMs = w.nowMs + (loop ? loop * 1000 : clip.duration_ms * count!);
      await setPlayback(w, gateway, { audioUploadUuid: clip.uuid, startedAtMs: w.nowMs, untilMs, playCount: count, loopDurationSec: loop });
    }
    return all;
  });
}

/** `cancelLoopingAudioPlayback`: each gateway named stops the clip it loops; true where one was looping. */
export async function cancelLoopingPlayback(deps: WriteDeps, ctx: CallerContext, refs: readonly string[]): Promise<Record<string, boolean>> {
  return write(deps, ctx, async (w) => {
    const result: Record<string, boolean> = {};
    for (const [i, ref] of refs.entries()) {
      const gateway = await gatewayOf(w, ctx.orgUuid, `audioDevices[${i}]`, ref);
      const playing = playbackAt(gateway, w.nowMs);
      result[ref] = Boolean(playing?.loopDurationSec);
      if (result[ref]) await setPlayback(w, gateway, null);
    }
    return result;
  });
}

/** A gateway reports that it stopped playing (`gatehouse simulate audio-stopped`): its playback is over. */
export async function reportPlaybackStopped(deps: WriteDeps, actor: Actor, gatewayUuid: string): Promise<boolean> {
  return write(deps, actor, async (w) => {
    const gateway = await findDevice(w, actor.orgUuid, gatewayUuid, ['AUDIO_GATEWAY']);
    if (!gateway) throw fail('NOT_FOUND', 'Audio gateway');
    if (!gateway.attributes.audioPlayback) return false;
    await setPlayback(w, gateway, null);
    return true;
  });
}

/** `deleteAudioUploadMetadata`: the clip and its file go; gateways playing it stop. */
export async function deleteAudioUpload(deps: WriteDeps & Pick<Deps, 'config'>, ctx: CallerContext, uuid: string): Promise<void> {
  const key = await write(deps, ctx, async (w) => {
    const row = await clipOf(w, ctx.orgUuid, uuid);
    for (const gateway of await listDevices(w, ctx.orgUuid, ['AUDIO_GATEWAY'])) {
      if ((gateway.attributes.audioPlayback as AudioPlayback | undefined)?.audioUploadUuid === uuid) await setPlayback(w, gateway, null);
    }
    await store.deleteClip(w.tx, row.uuid);
    w.change({ entity: 'AUDIO_UPLOAD', entityUuid: row.uuid, type: 'DELETE', update: toRecord(row) });
    return row.media_key;
  });
  await uploadedFiles(deps.config.dataDir).remove(key);
}

/** A clip's sound, for the media host (the caller's organization only), or null. */
export async function audioClipBytes(deps: Pick<Deps, 'store' | 'config'>, orgUuid: string, uuid: string): Promise<Buffer | null> {
  const row = await store.findClip(deps.store.db, orgUuid, uuid);
  return row ? uploadedFiles(deps.config.dataDir).read(row.media_key) : null;
}
