import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { openRawStream, RAW_STREAM_FILES } from '../domains/devices/live-shares/raw-http-streams.service.js';
import { errorBody } from '../edge/errors.js';
import { LIVE, LIVE_SIZES, latestSegment, msUntilSegment, type LiveCamera, type LiveSegments } from '../footage/live.js';
import { header } from './send.js';

/**
 * Raw HTTP streams (createRawHttpStream): the camera's live video as one continuous MPEG-TS, the live segments
 * (src/footage/live.ts) one after the other as their time passes, starting with the newest. A request presents the
 * stream's secret (the `secret` query parameter, or the password of HTTP Basic authentication); the stream ends
 * after `durationSec` (at most RAW_STREAM.maxSec), when the client goes, or once the stream is deleted (checked
 * before each segment). At most RAW_STREAM.concurrent are served at once.
 */
export const RAW_STREAM = { maxSec: 600, concurrent: 8 } as const;

const FILES = { [RAW_STREAM_FILES.video]: LIVE_SIZES.hd, [RAW_STREAM_FILES.low]: LIVE_SIZES.sd } as const;

/** The secret a request presents: the query parameter, else the password of Basic authentication. */
function presentedSecret(request: FastifyRequest<{ Querystring: { secret?: string } }>): string | undefined {
  if (request.query.secret) return request.query.secret;
  const basic = /^Basic\s+(.+)$/i.exec(header(request, 'authorization') ?? '');
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  return decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : undefined;
}

export function rawStreamRoutes(deps: Deps, live: LiveSegments): FastifyPluginAsync {
  let serving = 0;
  return async (app) => {
    app.get<{ Params: { path: string; file: keyof typeof FILES }; Querystring: { secret?: string; durationSec?: number } }>(
      '/media/raw/:path/:file',
      {
        schema: {
          params: {
            type: 'object',
            properties: { path: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' }, file: { type: 'string', enum: Object.keys(FILES) } },
            required: ['path', 'file'],
          },
          querystring: {
            type: 'object',
            properties: { secret: { type: 'string', maxLength: 128 }, durationSec: { type: 'integer', minimum: 1, maximum: RAW_STREAM.maxSec } },
          },
        },
      },
      async (request, reply) => {
        const access = await openRawStream(deps, request.params.path, presentedSecret(request));
        if (access.kind === 'missing') return reply.status(404).send(errorBody('No such raw HTTP stream (or it was deleted)'));
        if (access.kind !== 'open') {
          return reply
            .status(401)
            .header('www-authenticate', 'Basic realm="raw stream"')
            .send(errorBody('This stream needs its secret (secret parameter or Basic password)'));
        }
        if (serving >= RAW_STREAM.concurrent) return reply.status(503).header('retry-after', '5').send(errorBody('Too many raw streams are being served'));
        serving++;
        const body = Readable.from(
          segments(access.camera, request.params.path, presentedSecret(request)!, FILES[request.params.file], request.query.durationSec),
        );
        body.once('close', () => serving--);
        return reply.header('content-type', 'video/mp2t').header('cache-control', 'no-store').send(body);
      },
    );
  };

  async function* segments(camera: LiveCamera, path: string, secret: string, size: { width: number; height: number }, durationSec: number = RAW_STREAM.maxSec) {
    const count = Math.ceil(durationSec / LIVE.segmentSec);
    let seq = latestSegment(deps.clock.now());
    for (let sent = 0; sent < count; sent++, seq++) {
      const wait = msUntilSegment(seq, deps.clock.now());
      if (wait > 0) await sleep(wait);
      // Deleted (or its camera gone) meanwhile: the stream ends.
      if (sent > 0 && (await openRawStream(deps, path, secret)).kind !== 'open') return;
      yield await live.segment(camera, seq, size);
    }
  }
}
