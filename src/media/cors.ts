import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { header } from './send.js';

/**
 * CORS for browser players (dash.js, hls.js, a page's fetch): any origin may read the media host's answers, with
 * its credentials (cookies, the x-auth-* headers), and preflights are answered without authentication.
 */
const ALLOWED_HEADERS = 'x-auth-apikey, x-auth-scheme, x-auth-ft, x-auth-org, x-share-password, range, content-type, authorization';
const EXPOSED_HEADERS = 'content-length, content-range, accept-ranges, retry-after, etag';

export function allowBrowsers<L extends FastifyBaseLogger>(
  app: FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, L>,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = header(request, 'origin');
    if (!origin) return;
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-credentials', 'true')
      .header('access-control-expose-headers', EXPOSED_HEADERS)
      .header('vary', 'origin');
  });
  app.options('/*', async (_request, reply) =>
    reply
      .status(204)
      .header('access-control-allow-methods', 'GET, HEAD, PUT, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .send(),
  );
}
