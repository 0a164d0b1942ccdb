/**
 * Where a camera's DASH and HLS footage is on the media host (paths under its public base). The platform's
 * clients build segment URLs by replacing the manifest's file name (`file.mpd`, `clip.mpd`, `live.mpd`,
 * `file.m3u8`) with `seg_init.mp4` and `seg_<n>.m4v`, so every manifest has its segments beside it:
 *
 * - WAN VOD: `/dash/<camera>/<START>/<DURATION>/vod/file.mpd` and `.../vod/file.m3u8`
 * - LAN VOD: `/dash/<camera>/lan/<START>_<DURATION>/clip.mpd`
 * - live:    `/dash/<camera>/live/live.mpd` and `.../live/file.m3u8`
 *
 * `<START>` is epoch seconds and `<DURATION>` seconds, the `{START_TIME}` and `{DURATION}` of the templates.
 */
export const FOOTAGE_ROOT = '/dash';
/** The realtime sockets (src/media/realtime-sockets.ts): `/realtime/<camera>/ws`, over ws: or wss: as the base is http: or https:. */
export const REALTIME_PATH = '/realtime';
export const realtimeSocketPath = (cameraUuid: string) => `${REALTIME_PATH}/${cameraUuid}/ws`;
/**
 * The live audio sockets: `/realtime-audio/<device>/ws`. An audio gateway's URI is answered without the final `/ws`,
 * which the SDK appends for a gateway (and not for a doorbell camera, whose URI has it).
 */
export const REALTIME_AUDIO_PATH = '/realtime-audio';
export const realtimeAudioPath = (deviceUuid: string, withSuffix: boolean) => `${REALTIME_AUDIO_PATH}/${deviceUuid}${withSuffix ? '/ws' : ''}`;
/** A media base URL as a WebSocket base (http: to ws:, https: to wss:). */
export const socketBase = (base: string) => base.replace(/^http/, 'ws');

export function footagePaths(cameraUuid: string) {
  const root = `${FOOTAGE_ROOT}/${cameraUuid}`;
  return {
    vodMpdTemplate: `${root}/{START_TIME}/{DURATION}/vod/file.mpd`,
    vodM3u8Template: `${root}/{START_TIME}/{DURATION}/vod/file.m3u8`,
    lanVodMpdTemplate: `${root}/lan/{START_TIME}_{DURATION}/clip.mpd`,
    liveMpd: `${root}/live/live.mpd`,
    liveM3u8: `${root}/live/file.m3u8`,
  };
}

/** A VOD template with its placeholders filled. */
export const fillTemplate = (template: string, startSec: number, durationSec: number) =>
  template.replace('{START_TIME}', String(startSec)).replace('{DURATION}', String(durationSec));

/**
 * Where an audio gateway's recorded audio is (src/media/audio-routes.ts), in the same two forms as a camera's VOD:
 * `/audio/<gateway>/<START>/<DURATION>/vod/file.mpd` and `/audio/<gateway>/lan/<START>_<DURATION>/clip.mpd`, with
 * `seg_init.mp4`, `seg_<n>.m4a` and the web SDK's `seg_<n>.mpd` beside them.
 */
export const AUDIO_ROOT = '/audio';

export function audioPaths(gatewayUuid: string) {
  const root = `${AUDIO_ROOT}/${gatewayUuid}`;
  return { vodMpdTemplate: `${root}/{START_TIME}/{DURATION}/vod/file.mpd`, lanVodMpdTemplate: `${root}/lan/{START_TIME}_{DURATION}/clip.mpd` };
}
