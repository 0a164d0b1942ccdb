import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Logger } from '../logger.js';

/**
 * The browser console (issue 35): the app that `npm run build` bundles from console/ into dist/console-app/ is
 * served at /console on the REST port, under a strict content-security-policy (no inline script or style, nothing
 * from another origin but the media host), and the console's change stream is relayed from /console/stream to the
 * platform's STOMP-over-WebSocket stream (a browser cannot set the stream's `x-auth-apikey` handshake header, so it
 * sends the key in its STOMP CONNECT frame; the relay moves it to the handshake of its own connection to the stream).
 */

export const CONSOLE_PATH = '/console';
export const CONSOLE_STREAM_PATH = '/console/stream';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Where the built app is: beside the compiled server (dist/), the sources' dist (tsx), or the working directory's. */
export function consoleAppDir(): string | null {
  const candidates = [
    process.env.GATEHOUSE_CONSOLE_DIR,
    fileURLToPath(new URL('../console-app/', import.meta.url)),
    fileURLToPath(new URL('../../dist/console-app/', import.meta.url)),
    join(process.cwd(), 'dist', 'console-app'),
  ];
  return candidates.find((dir) => dir && existsSync(join(dir, 'index.html'))) ?? null;
}

interface Asset {
  body: Buffer;
  type: string;
  immutable: boolean;
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.startsWith('.')) {
        const rel = relative(dir, path).split(sep).join('/');
        assets.set(rel, { body: readFileSync(path), type: TYPES[extname(name)] ?? 'application/octet-stream', immutable: rel.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return assets;
}

/** The console's content-security-policy: its own scripts and styles only, its own origin's API and stream, the media host's images and video. */
export function consolePolicy(mediaOrigin: string | null): string {
  const media = mediaOrigin ? ` ${mediaOrigin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${media}`,
    `media-src 'self' blob:${media}`,
    `connect-src 'self'${media}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Registers GET /console and its assets. The media origin (another port) is allowed for thumbnails and footage. */
export function consoleRoutes(options: { mediaOrigin?: () => string | null } = {}) {
  return async (app: FastifyInstance) => {
    let assets: Map<string, Asset> | null = null;
    const send = (reply: FastifyReply, asset: Asset) =>
      reply
        .header('content-type', asset.type)
        .header('content-security-policy', consolePolicy(options.mediaOrigin?.() ?? null))
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(asset.body);
    const serve = async (file: string, reply: FastifyReply) => {
      if (!assets) {
        const dir = consoleAppDir();
        if (!dir) {
          return reply
            .status(503)
            .type('text/plain; charset=utf-8')
            .send('The console is not built: run `npm run build` (it bundles console/ into dist/console-app/).');
        }
        assets = loadAssets(dir);
      }
      const asset = assets.get(file) ?? (file.includes('.') ? undefined : assets.get('index.html'));
      if (!asset) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      return send(reply, asset);
    };
    app.get(CONSOLE_PATH, { schema: { hide: true } }, async (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 302));
    app.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, async (request, reply) => {
      const file = (request.params as { '*': string })['*'] || 'index.html';
      return serve(file, reply);
    });
  };
}

/** The headers of a STOMP frame's text: its command, headers and the rest. */
function parseFrame(text: string): { command: string; headers: [string, string][]; body: string } | null {
  const end = text.indexOf('\n\n');
  if (end < 0) return null;
  const [command, ...lines] = text
    .slice(0, end)
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  const headers = lines.filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string]);
  return { command: command.trim(), headers, body: text.slice(end + 2) };
}

function stompError(message: string): string {
  return `ERROR\ncontent-type:text/plain\nmessage:${message.replace(/[\n:]/g, ' ')}\n\n${message}\0`;
}

const AUTH_HEADERS = new Set(['x-auth-apikey', 'x-auth-scheme', 'x-auth-org']);

/**
 * Relays WebSocket connections to /console/stream to the platform's stream (`streamUrl`), authenticating the
 * stream's handshake with the key the client's CONNECT frame carries. Everything after CONNECT passes unchanged.
 */
export function relayConsoleStream(server: Server, streamUrl: string, tlsCert: string, log: Logger): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const target = streamUrl.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== CONSOLE_STREAM_PATH) {
      socket.destroy();
      return;
    }
    // The console's own pages only: another site's page may not open a stream through a visitor's browser.
    const origin = request.headers.origin;
    if (origin && new URL(origin).host !== request.headers.host) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => relay(client));
  };

  function relay(client: WebSocket): void {
    let upstream: WebSocket | null = null;
    const pending: RawData[] = [];
    const closeBoth = () => {
      if (client.readyState === WebSocket.OPEN) client.close();
      if (upstream && (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING)) upstream.terminate();
    };
    client.on('close', closeBoth);
    client.on('error', closeBoth);
    client.on('message', (data, isBinary) => {
      if (upstream) {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
        else pending.push(data);
        return;
      }
      const frame = parseFrame(data.toString());
      if (!frame || (frame.command !== 'CONNECT' && frame.command !== 'STOMP')) {
        if (data.toString().trim() === '') return; // a heart-beat before CONNECT
        client.send(stompError('The first frame must be CONNECT, with the x-auth-apikey header'));
        client.close();
        return;
      }
      const auth = Object.fromEntries(frame.headers.filter(([k]) => AUTH_HEADERS.has(k.toLowerCase())).map(([k, v]) => [k.toLowerCase(), v]));
      const kept = frame.headers.filter(([k]) => !AUTH_HEADERS.has(k.toLowerCase()));
      const connect = [frame.command, ...kept.map(([k, v]) => `${k}:${v}`), '', frame.body].join('\n');
      const url = new URL(target);
      if (auth['x-auth-scheme']) url.searchParams.set('x-auth-scheme', auth['x-auth-scheme']);
      const headers: Record<string, string> = {};
      if (auth['x-auth-apikey']) headers['x-auth-apikey'] = auth['x-auth-apikey'];
      if (auth['x-auth-org']) headers['x-auth-org'] = auth['x-auth-org'];
      // The stream's certificate is this server's own: pinned, whatever names it was made for.
      upstream = new WebSocket(url, client.protocol ? [client.protocol] : [], {
        headers,
        ca: tlsCert,
        // Node's check answers undefined for a match; ws's types say boolean.
        checkServerIdentity: (() => undefined) as unknown as () => boolean,
      });
      upstream.on('open', () => {
        upstream!.send(connect);
        for (const d of pending.splice(0)) upstream!.send(d);
      });
      upstream.on('message', (d, binary) => {
        if (client.readyState === WebSocket.OPEN) client.send(d, { binary });
      });
      upstream.on('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let message = `The stream refused the connection (HTTP ${res.statusCode})`;
          try {
            message = (JSON.parse(Buffer.concat(chunks).toString()) as { errorMsg?: string }).errorMsg ?? message;
          } catch {
            // not JSON: the status says it
          }
          if (client.readyState === WebSocket.OPEN) client.send(stompError(message));
          client.close();
        });
      });
      upstream.on('close', () => {
        if (client.readyState === WebSocket.OPEN) client.close();
      });
      upstream.on('error', (err) => {
        log.debug({ err }, 'console stream relay: upstream error');
        if (client.readyState === WebSocket.OPEN) client.close();
      });
    });
  }

  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const c of wss.clients) c.terminate();
    wss.close();
  };
}
