import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../edge/errors.js';
import { parseRange } from './range.js';
import type { StoredFile } from '../footage/storage.js';

/** One value of a request header. */
export const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function unsatisfiable(reply: FastifyReply, size: number, what: string) {
  return reply
    .status(416)
    .header('content-range', `bytes */${size}`)
    .header('content-type', 'application/json')
    .send(errorBody(`Range not satisfiable: the ${what} has ${size} bytes`));
}

/** Sends a rendered file (video or audio), honouring a single-range `Range` header (206, or 416 past the end). */
export function sendBuffer(request: FastifyRequest, reply: FastifyReply, body: Buffer, contentType: string, cacheControl = 'private, max-age=3600') {
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('cache-control', cacheControl);
  const range = parseRange(header(request, 'range'), body.length);
  if (range.kind === 'unsatisfiable') return unsatisfiable(reply, body.length, contentType.split('/')[0]);
  if (range.kind === 'whole') return reply.header('content-length', body.length).send(body);
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${body.length}`)
    .header('content-length', range.end - range.start + 1)
    .send(body.subarray(range.start, range.end + 1));
}

/** Sends a stored file, honouring a single-range `Range` header (206, or 416 past the end). */
export function sendStoredFile(request: FastifyRequest, reply: FastifyReply, media: StoredFile, what: string, cacheControl = 'private, max-age=3600') {
  reply.header('accept-ranges', 'bytes').header('content-type', media.contentType).header('cache-control', cacheControl);
  if (media.etag) reply.header('etag', media.etag);
  const range = parseRange(header(request, 'range'), media.size);
  if (range.kind === 'unsatisfiable') return unsatisfiable(reply, media.size, what);
  if (range.kind === 'whole') return reply.header('content-length', media.size).send(createReadStream(media.file));
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${media.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(createReadStream(media.file, { start: range.start, end: range.end }));
}
