import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { ApiApp } from '../../edge/operation.js';
import { Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './badge-signature.js';
import { receiveBadgePost } from './badge-events.service.js';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * `POST /webhooks/badge/{webhookUuid}`: where the badge system posts badge events. The body is kept raw,
 * since the signature is over its exact bytes; the service parses and validates it once it is verified.
 */
export async function badgeWebhookRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { webhookUuid: string } }>(
      '/badge/:webhookUuid',
      {
        schema: {
          hide: true,
          params: Type.Object({ webhookUuid: Type.String({ maxLength: 64 }) }),
          response: {
            200: ResponseOf({ badgeEventUuid: Field(Ruuid()), savedClipUuids: Field(Type.Array(Ruuid())), policyAlertUuids: Field(Type.Array(Ruuid())) }),
          },
        },
      },
      async (request) => {
        const event = await receiveBadgePost(deps, {
          webhookUuid: request.params.webhookUuid,
          timestamp: header(request.headers[TIMESTAMP_HEADER]),
          signature: header(request.headers[SIGNATURE_HEADER]),
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        return { error: false, badgeEventUuid: event.uuid, savedClipUuids: event.savedClipUuids, policyAlertUuids: event.policyAlertUuids };
      },
    );
  });
}
