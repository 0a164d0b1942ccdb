import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isGatehouseError } from '../errors.js';

export const STRUCTURE_MSG = "JSON doesn't match expected object structure";

/** The envelope of a failed call. */
export function errorBody(errorMsg: string, extra: Record<string, unknown> = {}) {
  return { error: true, errorMsg, warningMsg: null, ...extra };
}

/**
 * Maps every failure to the platform's envelope: bad input is 400 with `msg`, authentication 401/403,
 * a domain failure 200 with `error: true`; anything unexpected is logged and answered 500 without detail.
 * The envelope is serialized as it is, not by the operation's response schema: a domain failure is a 200, and
 * the schema of the operation's answer (which may require its fields) does not describe it.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
  if (isGatehouseError(error)) {
    const extra = error.status === 400 ? { msg: STRUCTURE_MSG } : {};
    if (error.status >= 500) request.log.error({ err: error }, 'service unavailable');
    return reply.status(error.status).send(errorBody(error.message, extra));
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    return reply.status(400).send(errorBody(fe.message, { msg: STRUCTURE_MSG }));
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.status(400).send(errorBody(`Content-Type must be application/json, got "${request.headers['content-type'] ?? ''}"`, { msg: STRUCTURE_MSG }));
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(request, reply);
  if (isStoreDataException(error)) {
    // A value the store cannot hold (a number past bigint, text it cannot encode): bad input, not a fault.
    request.log.info({ code: (error as { code?: string }).code }, 'value refused by the store');
    return reply.status(400).send(errorBody(`A value of the request cannot be stored: ${error.message.slice(0, 160)}`, { msg: STRUCTURE_MSG }));
  }
  if (isUniqueViolation(error)) {
    // Two writes raced past the same check-then-insert (a name, a plate): the loser is told, as for any conflict.
    request.log.info({ code: (error as { code?: string }).code }, 'unique value taken by a concurrent write');
    return reply.status(200).send(errorBody('A record with the same unique value was written at the same time; read it and retry'));
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    request.log.info({ code: fe.code, status }, fe.message);
    return reply.status(status).send(errorBody(fe.message, status === 400 ? { msg: STRUCTURE_MSG } : {}));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(errorBody('Internal server error'));
}

/** PostgreSQL's class 22 (data exception): out-of-range numbers, untranslatable characters, invalid text for a type. */
function isStoreDataException(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown };
  return typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code) && typeof e.severity === 'string';
}

/** A unique constraint refused a row: PostgreSQL's 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** How long the rest of an over-limit body is read (and dropped) before the connection is closed. */
export const DRAIN_MS = 10_000;

/**
 * 413, with a lingering close: the answer says `connection: close`, and once it is sent the server closes its
 * side but goes on reading (and dropping) what the client still sends, for at most DRAIN_MS. Closing at once
 * with unread bytes would reset the connection under a client that is still sending, which then loses the
 * answer. Node ends a `connection: close` exchange with `socket.destroySoon()`, which is what changes here.
 */
function tooLarge(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw;
  const socket = raw.socket as (typeof raw.socket & { destroySoon?: () => void }) | null;
  if (!raw.complete && socket && !socket.destroyed) {
    raw.resume();
    socket.destroySoon = () => {
      const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      socket.end();
      socket.resume();
    };
  }
  reply.header('connection', 'close');
  return reply.status(413).send(errorBody('Request body is too large'));
}
