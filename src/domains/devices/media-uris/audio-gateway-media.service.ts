import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid } from '../../../ids.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { audioPaths, realtimeAudioPath, socketBase } from '../../../footage/footage-paths.js';
import { AUDIO_LIMITS, renderAudio } from '../../../footage/render-audio.js';
import { SENSORS } from '../sensors/service.js';
import { audioClipBytes, playbackAt } from '../audio-playback/service.js';
import { findDevice, type DeviceRecord } from '../service.js';
import type { DeviceKind } from '../tables.js';

type ReadDeps = Pick<Deps, 'store'>;

/** Media host path of an audio gateway's live audio (answered absolute, from the media host's public base). */
export const audioGatewayLivePath = (gatewayUuid: string) => `/media/audiogateways/${gatewayUuid}/live.opus`;

/** What has live audio on the media host: audio gateways, and doorbell cameras (their microphone). */
export const AUDIO_KINDS = [...SENSORS.audio.kinds, 'DOORBELL_CAMERA'] as const;

/** The organization's audio gateway (or doorbell camera) named by its uuid or a facet id of it (`<uuid>.a0`). */
export async function audioGatewayOf(deps: ReadDeps, orgUuid: string, ref: string, kinds: readonly DeviceKind[] = SENSORS.audio.kinds): Promise<DeviceRecord> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const gateway = uuid ? await findDevice(deps, orgUuid, uuid, kinds) : null;
  if (!gateway) throw fail('NOT_FOUND', SENSORS.audio.what);
  return gateway;
}

/**
 * `audiogateway/getMediaUris`: where the gateway's audio is on the media host: live as the SDK's Opus socket
 * (src/media/realtime-sockets.ts; the Ogg Opus of src/footage/render-audio.ts stays served at its path), recorded as DASH (the VOD templates, `{START_TIME}` in epoch seconds
 * and `{DURATION}` in seconds; src/footage/audio-segments.ts). Live DASH is not served: that field is null.
 */
export async function getAudioGatewayMediaUris(deps: Pick<Deps, 'store' | 'mediaHost'>, ctx: CallerContext, gatewayRef: string) {
  const gateway = await audioGatewayOf(deps, ctx.orgUuid, gatewayRef);
  const paths = audioPaths(gateway.uuid);
  // The live socket without its final /ws: the SDK appends it for a gateway.
  const liveOpus = `${socketBase(deps.mediaHost.base)}${realtimeAudioPath(gateway.uuid, false)}`;
  return {
    wanLiveOpusUri: liveOpus,
    wanLiveMpdUri: null,
    wanVodMpdUriTemplate: mediaUrl(deps, paths.vodMpdTemplate),
    lanLiveOpusUris: [liveOpus],
    lanLiveMpdUris: [],
    lanVodMpdUrisTemplates: [mediaUrl(deps, paths.lanVodMpdTemplate)],
    lanCheckUrls: [],
  };
}

/** The Ogg Opus the media host serves for a live URI (the clip it plays, when it plays one); only an audio gateway of the caller's organization. */
export async function audioGatewayLiveAudio(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  orgUuid: string,
  input: { gatewayUuid: string; durationSec?: number },
): Promise<Buffer> {
  const gateway = await audioGatewayOf(deps, orgUuid, input.gatewayUuid, AUDIO_KINDS);
  // A gateway playing a clip (audioplayback/playAudioUpload) is heard playing it.
  const playing = playbackAt(gateway, deps.clock.now());
  const clip = playing ? await audioClipBytes(deps, orgUuid, playing.audioUploadUuid) : null;
  if (clip) return clip;
  return renderAudio({ durationSec: Math.min(input.durationSec ?? AUDIO_LIMITS.defaultDurationSec, AUDIO_LIMITS.maxDurationSec) });
}

/** A doorbell camera's live audio on the media host (doorbellcamera/getMediaUris adds it to its video's URIs). */
export const doorbellLiveOpusUri = (deps: Pick<Deps, 'mediaHost'>, doorbellUuid: string) =>
  `${socketBase(deps.mediaHost.base)}${realtimeAudioPath(doorbellUuid, true)}`;
