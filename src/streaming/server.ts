import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { applyRequestTimeouts, requestTimeoutOptions } from '../net/request-timeouts.js';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { CallerContext } from '../context.js';
import type { Deps } from '../deps.js';
import { authenticate } from '../domains/orgs/keys/authenticate.js';
import { clientAddressReader } from '../edge/client-address.js';
import { createRequestLimits, TOO_MANY_REQUESTS, type RequestLimits } from '../edge/rate-limit.js';
import { refusedKeys, type KeyEnd } from '../domains/orgs/service.js';
import { isGatehouseError, type ErrorCode } from '../errors.js';
import type { TlsMaterial } from '../tls.js';
import { ChangeHub } from './hub.js';
import { defaultStreamOptions, type StreamOptions } from './options.js';
import { CLOSE, StompSession } from './session.js';
import { SocketWriter, textFrame, TurnWrites } from './socket-writes.js';

export const STREAM_PATH = '/websocket';

/**
 * The WebSocket of a stream connection. A message over `maxPayload` makes the ws library close the connection
 * with 1009 before any frame of it is read; this hook lets the session send its ERROR first.
 */
class StompWebSocket extends WebSocket {
  onOversized: (() => void) | null = null;

  override close(code?: number, data?: string | Buffer): void {
    if (code === CLOSE.tooBig && this.readyState === WebSocket.OPEN && this.onOversized) {
      const hook = this.onOversized;
      this.onOversized = null;
      hook();
    }
    super.close(code, data);
  }
}
/** STOMP's WebSocket subprotocols, most recent first: the first one the client offers is chosen. */
const SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];
/** How long a closing connection may take to finish its close handshake before it is cut. */
const CLOSE_GRACE_MS = 5000;
/** Key ids per store query of the key check. */
const KEY_CHECK_BATCH = 500;

/** The ERROR message that ends a session whose key stopped working. */
const KEY_END_MESSAGE: Record<KeyEnd, string> = { revoked: 'API token revoked', expired: 'API token expired', deleted: 'API token no longer exists' };

/**
 * On the socket every failure to authenticate is 401, except a caller that is known but may not act for
 * the organization (403), as the platform answers the handshake.
 */
const HANDSHAKE_STATUS: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  INVALID_API_KEY: 401,
  UNSUPPORTED_AUTH_SCHEME: 401,
  ACCESS_DENIED: 403,
};

export interface StreamServer {
  server: Server;
  /** `wss://host:port/websocket` */
  url: string;
  /** Open STOMP sessions on this instance. */
  sessionCount(): number;
  close(): Promise<void>;
}

export interface StreamListen {
  host: string;
  port: number;
}

function refuse(socket: Duplex, status: number, errorMsg: string): void {
  const body = JSON.stringify({ error: true, errorMsg });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The platform's 429, as the REST edge answers it (text/plain, Retry-After in seconds). */
function refuseTooMany(socket: Duplex, seconds: number): void {
  socket.end(
    `HTTP/1.1 429 ${STATUS_CODES[429]}\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: ${seconds}\r\nContent-Length: ${Buffer.byteLength(TOO_MANY_REQUESTS)}\r\nConnection: close\r\n\r\n${TOO_MANY_REQUESTS}`,
  );
}

function answer(res: ServerResponse, status: number, errorMsg: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, errorMsg }));
}

const single = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * The stream's TLS listener: authenticates the WebSocket handshake (API token in `x-auth-apikey`, scheme in
 * the `x-auth-scheme` query parameter, `x-auth-org` in a header or the query) and runs one STOMP session
 * per connection over the changes of the caller's organization.
 */
export async function startStream(
  deps: Pick<Deps, 'bus' | 'store' | 'log' | 'config' | 'clock' | 'keyCache' | 'mediaHost'>,
  tls: TlsMaterial,
  listen: StreamListen,
  overrides: Partial<StreamOptions> = {},
  /** The REST edge's limits, so that failed keys count once per address over both ports; made here when absent. */
  sharedLimits?: Pick<RequestLimits, 'keyFailed' | 'close'>,
): Promise<StreamServer> {
  const options = { ...defaultStreamOptions, ...overrides };
  const limits = sharedLimits ?? createRequestLimits(deps.config, deps.log, deps.bus.namespace);
  const clientAddress = clientAddressReader(deps.config.trustProxy);
  const hub = new ChangeHub(deps, { gapWaitMs: options.gapWaitMs, logPollMs: options.logPollMs });
  hub.start();
  const sessions = new Map<StompSession, { ws: WebSocket; apiKeyId: string | null; orgUuid: string; partnerOrgUuid: string | null }>();
  let closing = false;

  /** Ends, in one pass over the sessions, those opened by a key that stopped working (key id to why). */
  function endSessionsOf(ended: Map<string, KeyEnd>): void {
    for (const [session, open] of sessions) {
      const why = open.apiKeyId === null ? undefined : ended.get(open.apiKeyId);
      if (why === undefined) continue;
      deps.log.info({ session: session.id, apiKeyId: open.apiKeyId }, `stream: ${KEY_END_MESSAGE[why]}, session closed`);
      session.shutdown(KEY_END_MESSAGE[why], CLOSE.policy);
    }
  }

  // A revocation anywhere on the bus ends the key's sessions at once; the periodic check catches the rest
  // (expiry, a revocation this bus did not carry, a reset of the store).
  const stopRevocations = deps.bus.subscribe('key.revoked', ({ keyId }) => endSessionsOf(new Map([[keyId, 'revoked']])));
  // A withdrawn partner grant ends the partner's sessions in that client organization at once.
  const stopPartnerRevocations = deps.bus.subscribe('partner.revoked', ({ partnerOrgUuid, clientOrgUuid }) => {
    for (const [session, open] of sessions) {
      if (open.partnerOrgUuid !== partnerOrgUuid || open.orgUuid !== clientOrgUuid) continue;
      deps.log.info({ session: session.id, partnerOrgUuid }, 'stream: partner grant withdrawn, session closed');
      session.shutdown('Partner access to the organization withdrawn', CLOSE.policy);
    }
  });
  let checking = false;
  async function checkKeys(): Promise<void> {
    if (checking || sessions.size === 0) return;
    checking = true;
    try {
      const ids = [...new Set([...sessions.values()].map((open) => open.apiKeyId).filter((id) => id !== null))];
      const ended = new Map<string, KeyEnd>();
      for (let i = 0; i < ids.length; i += KEY_CHECK_BATCH) {
        for (const [keyId, why] of await refusedKeys(deps, ids.slice(i, i + KEY_CHECK_BATCH))) ended.set(keyId, why);
      }
      if (ended.size > 0) endSessionsOf(ended);
    } catch (e) {
      deps.log.error({ err: e }, 'stream: checking the keys of open sessions failed');
    } finally {
      checking = false;
    }
  }
  const keyCheck = setInterval(() => void checkKeys(), options.keyCheckMs).unref();
  const maxPayload = options.maxFrameBytes * 4;
  const wss = new WebSocketServer({
    noServer: true,
    WebSocket: StompWebSocket,
    // Above the frame limit, so that an oversized frame is answered by the session with ERROR.
    maxPayload,
    // No compression: the sessions' frames are written to the socket as whole WebSocket frames (socket-writes.ts).
    perMessageDeflate: false,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const turn = new TurnWrites();

  /**
   * Runs a session on an upgraded connection. Its frames go straight to `socket` (the one the WebSocket runs
   * on), whole, in order with what the `ws` library writes there itself (pongs, the close frame).
   */
  function attach(ws: StompWebSocket, ctx: CallerContext, socket: Duplex): void {
    const writer = new SocketWriter(
      socket,
      turn,
      () => ws.readyState === WebSocket.OPEN,
      () => session.drained(),
    );
    const session: StompSession = new StompSession(
      ctx.orgUuid,
      hub,
      {
        encode: textFrame,
        send: (bytes) => writer.send(bytes),
        flush: () => writer.flush(),
        pendingBytes: () => writer.pendingBytes(),
        close: (code, reason) => {
          writer.flush();
          ws.close(code, reason);
          setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
        },
      },
      options,
      deps.log,
      (s) => sessions.delete(s),
    );
    sessions.set(session, { ws, apiKeyId: ctx.apiKeyId, orgUuid: ctx.orgUuid, partnerOrgUuid: ctx.partnerOrgUuid });
    ws.onOversized = () => session.oversized(maxPayload);
    ws.on('message', (data: Buffer) => session.receive(data));
    ws.on('close', () => session.closed());
    ws.on('error', (e) => deps.log.debug({ err: e, session: session.id }, 'stream: connection error'));
    deps.log.debug({ session: session.id, orgUuid: ctx.orgUuid, apiKeyId: ctx.apiKeyId }, 'stream: connected');
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'https://stream');
    if (url.pathname !== STREAM_PATH) return refuse(socket, 404, `Not found: the stream is at ${STREAM_PATH}`);
    if (closing) return refuse(socket, 503, 'The server is shutting down');
    const scheme = url.searchParams.get('x-auth-scheme') ?? single(req.headers['x-auth-scheme']) ?? 'api-token';
    if (scheme === 'api' || scheme === 'partner-api') {
      return refuse(socket, 401, 'Certificate authentication is not supported on the WebSocket: use an API token (api-token or partner-api-token)');
    }
    let ctx: CallerContext;
    try {
      ctx = await authenticate(
        deps,
        {
          scheme,
          apiKey: single(req.headers['x-auth-apikey']),
          orgHeader: single(req.headers['x-auth-org']) ?? url.searchParams.get('x-auth-org') ?? undefined,
          accessToken: single(req.headers['x-auth-access-token']),
          clientCertFingerprint: null,
        },
        { requestId: randomUUID(), operation: 'websocket' },
      );
    } catch (e) {
      if (isGatehouseError(e) && e.code === 'INVALID_API_KEY') {
        // A failed key attempt: logged with the client address (never the key), and limited per address.
        const address = clientAddress(req);
        const wait = await limits.keyFailed(address);
        deps.log.warn({ component: 'auth', clientAddress: address, operation: 'websocket', throttled: wait > 0 }, 'failed key attempt');
        if (wait > 0) return refuseTooMany(socket, wait);
      }
      if (isGatehouseError(e)) return refuse(socket, HANDSHAKE_STATUS[e.code] ?? e.status, e.message);
      deps.log.error({ err: e }, 'stream: handshake failed');
      return refuse(socket, 503, 'The stream is unavailable');
    }
    if (socket.destroyed || closing) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws as StompWebSocket, ctx, socket));
  }

  const server = createServer(
    { cert: tls.cert, key: tls.key, ...requestTimeoutOptions(deps.config.requestTimeoutMs) },
    (req: IncomingMessage, res: ServerResponse) => {
      if (new URL(req.url ?? '/', 'https://stream').pathname === STREAM_PATH) return answer(res, 426, 'Upgrade Required: open a WebSocket');
      answer(res, 404, `Not found: the stream is at ${STREAM_PATH}`);
    },
  );
  applyRequestTimeouts(server, deps.config.requestTimeoutMs);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head));
  server.on('tlsClientError', () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listen.port, listen.host, () => resolve());
    });
  } catch (e) {
    stopRevocations();
    stopPartnerRevocations();
    clearInterval(keyCheck);
    hub.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    server,
    url: `wss://${host}:${port}${STREAM_PATH}`,
    sessionCount: () => sessions.size,
    async close() {
      closing = true;
      stopRevocations();
      stopPartnerRevocations();
      clearInterval(keyCheck);
      const sockets = [...sessions.values()].map((open) => open.ws);
      for (const session of [...sessions.keys()]) session.shutdown('Server shutting down');
      // Let the clients read ERROR and the close frame, briefly; then cut whatever is left.
      const deadline = Date.now() + 1000;
      while (sockets.some((ws) => ws.readyState !== ws.CLOSED) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const ws of sockets) ws.terminate();
      hub.close();
      wss.close();
      if (!sharedLimits) await limits.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
