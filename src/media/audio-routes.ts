import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { audioGatewayOf } from '../domains/devices/media-uris/audio-gateway-media.service.js';
import { AUDIO_CODECS, AUDIO_SEGMENT, audioFrameEnvelope, audioInit, placeAudioSegment } from '../footage/audio-segments.js';
import { audioSegment } from './footage-segments.js';
import { AUDIO_ROOT } from '../footage/footage-paths.js';
import { audioVodMpd, segmentCount } from '../footage/manifests.js';
import { MediaRequestError, parseWindow, sendText, serveMedia } from './footage-routes.js';
import { sendBuffer } from './send.js';

/**
 * An audio gateway's recorded audio as DASH (client-calls.md M18, historical; paths in src/footage/footage-paths.ts):
 * the MPD (one audio AdaptationSet), `seg_init.mp4`, `seg_<n>.m4a` (Opus in fMP4, for dash.js) and `seg_<n>.mpd`
 * (the same frames in the envelope the web SDK decodes itself). Segments are encoded once and kept in the media
 * host's segment cache, as the footage's are; windows are checked as the footage's are.
 */
const SEGMENT_FILE = /^seg_(\d{1,12})\.(m4a|mpd)$/;
const CACHE = 'private, max-age=86400';

export function audioRoutes(app: FastifyInstance, deps: Deps): void {
  const serveWindow = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ref: string,
    window: { startSec: number; durationSec: number },
    file: string,
    mpd: string,
  ) => {
    const gateway = await audioGatewayOf(deps, request.caller.orgUuid, ref);
    if (file === mpd) return sendText(reply, 'application/dash+xml', audioVodMpd(window.durationSec, AUDIO_SEGMENT.sampleRate, AUDIO_CODECS), CACHE);
    if (file === 'seg_init.mp4') return sendBuffer(request, reply, await audioInit(), 'audio/mp4', CACHE);
    const match = SEGMENT_FILE.exec(file);
    if (!match) throw new MediaRequestError(404, `Unknown file ${file.slice(0, 60)}`);
    const n = Number(match[1]);
    const count = segmentCount(window.durationSec);
    if (n < 1 || n > count) throw new MediaRequestError(404, `No segment ${n} in a window of ${window.durationSec} s (seg_1 to seg_${count})`);
    const offsetMs = (n - 1) * AUDIO_SEGMENT.seconds * 1000;
    const atMs = window.startSec * 1000 + offsetMs;
    const media = await audioSegment(deps, gateway.uuid, atMs);
    if (match[2] === 'mpd') return sendBuffer(request, reply, audioFrameEnvelope(atMs, media), 'application/octet-stream', CACHE);
    return sendBuffer(request, reply, placeAudioSegment(media, offsetMs, n), 'audio/iso.segment', CACHE);
  };

  type Params = { gateway: string; start: string; duration: string; window: string; file: string };
  app.get<{ Params: Params }>(`${AUDIO_ROOT}/:gateway/:start/:duration/vod/:file`, async (request, reply) =>
    serveMedia(deps, reply, async () => {
      const window = parseWindow(request.params.start, request.params.duration, deps.clock.now());
      return serveWindow(request, reply, request.params.gateway, window, request.params.file, 'file.mpd');
    }),
  );
  app.get<{ Params: Params }>(`${AUDIO_ROOT}/:gateway/lan/:window/:file`, async (request, reply) =>
    serveMedia(deps, reply, async () => {
      const [start, duration, extra] = request.params.window.split('_');
      if (duration === undefined || extra !== undefined) throw new MediaRequestError(400, 'The LAN window is <START_TIME>_<DURATION>');
      return serveWindow(request, reply, request.params.gateway, parseWindow(start!, duration, deps.clock.now()), request.params.file, 'clip.mpd');
    }),
  );
}
