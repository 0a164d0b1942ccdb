import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Options of node:http(s).createServer that close a connection which has not sent its whole request (headers
 * and body) within `ms`: slow or stalled clients cannot hold sockets for Node's defaults (60 s of headers,
 * 300 s of request). Node checks open connections every `connectionsCheckingInterval`, so that is kept short.
 * On TLS ports the handshake has the same limit.
 */
export function requestTimeoutOptions(ms: number) {
  return { requestTimeout: ms, headersTimeout: ms, connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(ms / 4))), handshakeTimeout: ms };
}

/**
 * Sets the same limits on a server (Fastify sets requestTimeout itself; headersTimeout must follow), and closes
 * a connection that sends no request at all within `ms` (Node's own checks only start with a request's first
 * byte). Call it before the server listens.
 */
export function applyRequestTimeouts(server: Server, ms: number): void {
  server.requestTimeout = ms;
  server.headersTimeout = ms;
  const pending = new WeakMap<Socket, NodeJS.Timeout>();
  const watch = (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    pending.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  };
  const seen = (req: { socket: Socket }) => {
    const timer = pending.get(req.socket);
    if (timer) {
      clearTimeout(timer);
      pending.delete(req.socket);
    }
  };
  // A TLS server's requests arrive on the TLS socket, which exists once the handshake is over.
  server.on('encrypted' in server || 'setSecureContext' in server ? 'secureConnection' : 'connection', watch);
  server.on('request', seen);
  server.on('upgrade', seen);
}
