import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import type { ApiApp } from '../../../edge/operation.js';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { ONGUARD_SIGNATURE_HEADER, receiveHoneywellPost } from './honeywell.js';

/**
 * `POST /webhooks/honeywell/{token}`: where Honeywell OnGuard, Elements and NetBox post access events (the URL
 * their webhook-config operations answer). The body is kept raw: OnGuard's signature is over its exact bytes.
 */
export async function honeywellWebhookRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { token: string } }>(
      '/honeywell/:token',
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Type.String({ maxLength: 64 }) }),
          response: { 200: ResponseOf({ badgeEventUuid: Field(Ruuid()) }) },
        },
      },
      async (request) => {
        const signature = request.headers[ONGUARD_SIGNATURE_HEADER];
        const event = await receiveHoneywellPost(deps, {
          token: request.params.token,
          signature: Array.isArray(signature) ? signature[0] : signature,
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        return { error: false, badgeEventUuid: event?.uuid ?? null };
      },
    );
  });
}
