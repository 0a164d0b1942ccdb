import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../deps.js';
import { footageDevice } from '../domains/devices/media-uris/service.js';
import { errorBody } from '../edge/errors.js';
import { isGatehouseError } from '../errors.js';
import { REALTIME_AUDIO_PATH, REALTIME_PATH } from '../footage/footage-paths.js';
import { annexBAccessUnits, realtimeAudioMessage, realtimeMessage } from '../footage/realtime.js';
import { AUDIO_SEGMENT } from '../footage/audio-segments.js';
import { fragmentSamples } from '../footage/fmp4.js';
import { AUDIO_KINDS, audioGatewayOf } from '../domains/devices/media-uris/audio-gateway-media.service.js';
import { SegmentBusyError } from '../footage/segment-cache.js';
import { footageInit, SEGMENT, SEGMENT_MS } from '../footage/segments.js';
import { mediaCaller, mediaStatus } from './caller.js';
import { audioSegment, footageSegment } from './footage-segments.js';

/**
 * The realtime video sockets (client-calls.md M16): `<base as ws:/wss:>/realtime/<camera>/ws`, and `/wsl` for the
 * SD stream the SDK asks for (the same 720p pictures: the simulated cameras have one stream). The handshake is
 * authenticated as any media request (src/media/caller.ts; the SDK appends the federated query parameters); a
 * refused one is answered as HTTP, in the media host's error shape. The socket sends the `init` command, then
 * the camera's live footage a frame at a time, paced at the frame rate from the newest segment whose time has
 * passed (about 2 to 4 seconds behind the wall clock), in the framing of src/footage/realtime.ts. The live audio
 * sockets (M18, `/realtime-audio/<device>/ws`, audio gateways and doorbell cameras) send the recorded audio's
 * Opus frames (src/footage/audio-segments.ts) the same way, five frames a message.
 */
const VIDEO_SOCKET = new RegExp(`^${REALTIME_PATH}/([^/]{1,80})/(ws|wsl)$`);
const AUDIO_SOCKET = new RegExp(`^${REALTIME_AUDIO_PATH}/([^/]{1,80})/ws$`);
const AUDIO_MESSAGE_MS = 100;
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
    const video = VIDEO_SOCKET.exec(url.pathname);
    const audio = AUDIO_SOCKET.exec(url.pathname);
    if (!video && !audio) return refuse(socket, 404, `No WebSocket at ${url.pathname.slice(0, 80)}`);
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
      if (video) {
        const camera = await footageDevice(deps, caller.orgUuid, video[1]!);
        wss.handleUpgrade(request, socket, head, (ws) => void playVideo(ws, camera));
      } else {
        const device = await audioGatewayOf(deps, caller.orgUuid, audio![1]!, AUDIO_KINDS);
        wss.handleUpgrade(request, socket, head, (ws) => void playAudio(ws, device.uuid));
      }
    } catch (e) {
      if (isGatehouseError(e)) return refuse(socket, mediaStatus(e), e.message);
      deps.log.error({ err: e }, 'realtime: a handshake failed');
      refuse(socket, 500, 'Internal error');
    }
  };

  /**
   * Sends the messages of live segment after segment, `intervalMs` apart, until the client goes: from the newest
   * segment whose time has passed (by the time its messages are sent, the next one's has).
   */
  const pace = async (ws: WebSocket, deviceUuid: string, messagesOf: (n: number) => Promise<Buffer[]>, intervalMs: number) => {
    let open = true;
    ws.on('close', () => (open = false));
    ws.on('error', () => (open = false));
    try {
      let n = Math.floor(deps.clock.now() / SEGMENT_MS) - 1;
      let upcoming = messagesOf(n);
      const startedAt = performance.now();
      let sent = 0;
      while (open) {
        const messages = await upcoming;
        upcoming = messagesOf(n + 1);
        upcoming.catch(() => undefined);
        for (const message of messages) {
          const wait = startedAt + sent * intervalMs - performance.now();
          if (wait > 0) await sleep(wait);
          if (!open) return;
          if (ws.bufferedAmount > MAX_QUEUED_BYTES) return ws.close(CLOSE.slow, 'Too far behind');
          ws.send(message);
          sent++;
        }
        n++;
      }
    } catch (e) {
      if (!open) return;
      if (!(e instanceof SegmentBusyError)) deps.log.error({ err: e, deviceUuid }, 'realtime: media could not be encoded');
      // The SDK's own command: come back in a while.
      ws.send(JSON.stringify({ action: 'reconnect' }));
      ws.close(e instanceof SegmentBusyError ? CLOSE.busy : CLOSE.failed, 'The media could not be encoded just now');
    }
  };

  /** The camera's live frames, one a message at the frame rate, after the init command. */
  const playVideo = (ws: WebSocket, device: { uuid: string; name: string }) => {
    ws.send(JSON.stringify({ action: 'init', width: SEGMENT.width, height: SEGMENT.height, framerate: SEGMENT.fps }));
    return pace(
      ws,
      device.uuid,
      async (n) =>
        annexBAccessUnits(await footageInit(), await footageSegment(deps, device, n * SEGMENT_MS)).map((unit, i) =>
          realtimeMessage(n * SEGMENT_MS + i * FRAME_MS, unit),
        ),
      FRAME_MS,
    );
  };

  /** The device's live sound: every 100 ms a message of five 20 ms Opus frames. */
  const playAudio = (ws: WebSocket, deviceUuid: string) =>
    pace(
      ws,
      deviceUuid,
      async (n) => {
        const frames = fragmentSamples(await audioSegment(deps, deviceUuid, n * SEGMENT_MS));
        const perMessage = AUDIO_MESSAGE_MS / AUDIO_SEGMENT.frameMs;
        return Array.from({ length: Math.ceil(frames.length / perMessage) }, (_, k) =>
          realtimeAudioMessage(n * SEGMENT_MS + k * AUDIO_MESSAGE_MS, frames.slice(k * perMessage, (k + 1) * perMessage)),
        );
      },
      AUDIO_MESSAGE_MS,
    );

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
