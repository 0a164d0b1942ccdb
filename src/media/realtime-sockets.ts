import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../deps.js';
import { footageDevice } from '../domains/devices/media-uris/service.js';
import { errorBody } from '../edge/errors.js';
import { isGatehouseError } from '../errors.js';
import { REALTIME_PATH } from '../footage/footage-paths.js';
import { annexBAccessUnits, realtimeMessage } from '../footage/realtime.js';
import { SegmentBusyError } from '../footage/segment-cache.js';
import { footageInit, SEGMENT, SEGMENT_MS } from '../footage/segments.js';
import { mediaCaller, mediaStatus } from './caller.js';
import { footageSegment } from './footage-segments.js';

/**
 * The realtime video sockets (client-calls.md M16): `<base as ws:/wss:>/realtime/<camera>/ws`, and `/wsl` for the
 * SD stream the SDK asks for (the same 720p pictures: the simulated cameras have one stream). The handshake is
 * authenticated as any media request (src/media/caller.ts; the SDK appends the federated query parameters); a
 * refused one is answered as HTTP, in the media host's error shape. The socket sends the `init` command, then
 * the camera's live footage a frame at a time, paced at the frame rate from the newest segment whose time has
 * passed (about 2 to 4 seconds behind the wall clock), in the framing of src/footage/realtime.ts.
 */
const SOCKET_PATH = new RegExp(`^${REALTIME_PATH}/([^/]{1,80})/(ws|wsl)$`);
const FRAME_MS = 1000 / SEGMENT.fps;
/** A client this far behind (bytes queued) is closed rather than buffered for. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
const CLOSE = { busy: 1013, failed: 1011, slow: 1008, shutdown: 1001 } as const;

/** Serves the sockets on the media listener's server; answers what closes them all (at shutdown). */
export function realtimeSockets(server: Server, deps: Deps): () => Promise<void> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  let opened = 0;

  const refuse = (socket: Duplex, status: number, message: string) => {
    const body = JSON.stringify(errorBody(message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://media.invalid');
    const match = SOCKET_PATH.exec(url.pathname);
    if (!match) return refuse(socket, 404, `No WebSocket at ${url.pathname.slice(0, 80)}`);
    try {
      const first = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const caller = await mediaCaller(
        deps,
        { header: first, query: (name) => url.searchParams.get(name) ?? undefined },
        { requestId: `realtime-${++opened}`, operation: 'media.realtime' },
      );
      const device = await footageDevice(deps, caller.orgUuid, match[1]!);
      wss.handleUpgrade(request, socket, head, (ws) => void play(ws, device));
    } catch (e) {
      if (isGatehouseError(e)) return refuse(socket, mediaStatus(e), e.message);
      deps.log.error({ err: e }, 'realtime: a handshake failed');
      refuse(socket, 500, 'Internal error');
    }
  };

  /** The camera's live frames, paced at the frame rate, until the client goes. */
  const play = async (ws: WebSocket, device: { uuid: string; name: string }) => {
    let open = true;
    ws.on('close', () => (open = false));
    ws.on('error', () => (open = false));
    ws.send(JSON.stringify({ action: 'init', width: SEGMENT.width, height: SEGMENT.height, framerate: SEGMENT.fps }));
    const frames = async (n: number) => annexBAccessUnits(await footageInit(), await footageSegment(deps, device, n * SEGMENT_MS));
    try {
      // The newest segment whose time has passed: by the time its frames are sent, the next one's has.
      let n = Math.floor(deps.clock.now() / SEGMENT_MS) - 1;
      let upcoming = frames(n);
      const startedAt = performance.now();
      let sent = 0;
      while (open) {
        const units = await upcoming;
        upcoming = frames(n + 1);
        upcoming.catch(() => undefined);
        for (const [i, unit] of units.entries()) {
          const wait = startedAt + sent * FRAME_MS - performance.now();
          if (wait > 0) await sleep(wait);
          if (!open) return;
          if (ws.bufferedAmount > MAX_QUEUED_BYTES) return ws.close(CLOSE.slow, 'Too far behind');
          ws.send(realtimeMessage(n * SEGMENT_MS + i * FRAME_MS, unit));
          sent++;
        }
        n++;
      }
    } catch (e) {
      if (!open) return;
      if (!(e instanceof SegmentBusyError)) deps.log.error({ err: e, cameraUuid: device.uuid }, 'realtime: footage could not be encoded');
      // The SDK's own command: come back in a while.
      ws.send(JSON.stringify({ action: 'reconnect' }));
      ws.close(e instanceof SegmentBusyError ? CLOSE.busy : CLOSE.failed, 'The footage could not be encoded just now');
    }
  };

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(request, socket, head));
  return async () => {
    for (const client of wss.clients) {
      client.close(CLOSE.shutdown, 'Shutting down');
      // A client that does not answer the close does not hold the listener open.
      setTimeout(() => client.terminate(), 1000).unref();
    }
    wss.close();
  };
}
