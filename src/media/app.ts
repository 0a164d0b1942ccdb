import Fastify from 'fastify';
import type { Deps } from '../deps.js';
import { errorBody, handleError } from '../http/errors.js';
import { baseFastifyOptions } from '../http/fastify-options.js';

/** The media host: clips, thumbnails and face images, served to callers with the same API-key headers. */
export async function buildMediaApp(deps: Deps) {
  const app = Fastify(baseFastifyOptions(deps.log, 'media'));
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request, reply) => reply.status(404).send(errorBody(`Unknown media path ${request.url.split('?')[0]}`)));
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}
