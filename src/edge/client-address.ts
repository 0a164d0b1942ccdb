import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';

/**
 * The client address of a request as the REST edge reads it (Fastify's `request.ip` under `trustProxy`): the
 * socket's peer, or, behind trusted proxies, the address they forwarded. The stream's handshake uses it, so
 * that failed keys are counted per client on both ports.
 */
export function clientAddressReader(trustProxy: Config['trustProxy']): (req: IncomingMessage) => string {
  if (trustProxy === false) return (req) => req.socket.remoteAddress ?? 'unknown';
  const trust =
    trustProxy === true
      ? () => true
      : proxyAddr.compile(
          trustProxy
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
  return (req) => proxyAddr(req, trust);
}
