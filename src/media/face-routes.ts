import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../deps.js';
import { cameraFrame } from '../domains/devices/media-uris/service.js';
import { plateReadAt } from '../domains/events/vehicles/service.js';
import { faceSightingAt } from '../domains/faces/face-events.service.js';
import { readMatchmakerImage } from '../domains/faces/matchmakers.service.js';
import { errorBody } from '../edge/errors.js';
import { RUUID_PATTERN } from '../ids.js';
import { parseSightingImageKey } from '../footage/sighting-images.js';

/**
 * Face and plate images, `/media/faces?s3ObjectKey=<key>` (client-calls.md M14), for the keys the REST API answers:
 * a face sighting's or a plate read's `thumbnailS3Key` / `imageS3Key` (its camera at its instant, as a 480x270 or
 * 1920x1080 JPEG), and an uploaded face's `origS3Key` (the stored image). A key of another organization, or one
 * that names nothing, is 404.
 */
const RUUID = RUUID_PATTERN.replace(/^\^|\$$/g, '');
const UPLOADED_FACE = new RegExp(`^(${RUUID})/faces/${RUUID}/(${RUUID})\\.[a-z]+$`);
const DOWNSCALE = { thumb: 4, image: 1 } as const;

const notFound = (reply: FastifyReply) => reply.status(404).header('cache-control', 'no-store').send(errorBody('No image for that key'));

export function faceRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { s3ObjectKey?: unknown } }>('/media/faces', async (request, reply) => {
    const key = request.query.s3ObjectKey;
    if (typeof key !== 'string' || key.length === 0 || key.length > 300) {
      return reply.status(400).header('cache-control', 'no-store').send(errorBody('s3ObjectKey: the image key (a thumbnailS3Key) is required'));
    }
    const caller = request.caller;
    const sighting = parseSightingImageKey(key);
    if (sighting) {
      if (sighting.orgUuid !== caller.orgUuid) return notFound(reply);
      const at = await (sighting.kind === 'face' ? faceSightingAt : plateReadAt)(deps, caller.orgUuid, sighting.uuid);
      if (!at) return notFound(reply);
      const jpeg = await cameraFrame(deps, caller.orgUuid, {
        cameraUuid: at.cameraUuid,
        timestampMs: at.timestampMs,
        downscaleFactor: DOWNSCALE[sighting.size],
      });
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=86400').header('content-length', jpeg.length).send(jpeg);
    }
    const uploaded = UPLOADED_FACE.exec(key);
    if (!uploaded || uploaded[1] !== caller.orgUuid) return notFound(reply);
    const { face, bytes } = await readMatchmakerImage(deps, caller, uploaded[2]);
    return reply.header('content-type', face.contentType).header('cache-control', 'private, max-age=86400').header('content-length', bytes.length).send(bytes);
  });
}
