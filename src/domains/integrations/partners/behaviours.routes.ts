import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import type { FastifyRequest } from 'fastify';
import { EnvelopeResponse, Field, ResponseOf } from '../../../schemas/common.js';
import { updateBadgeIntegration } from '../badge.service.js';
import { BadgeSettings, BaseIntegrationRequest, DoorInfo, IntegrationUpdateResponse, type BadgeSettings as BadgeSettingsType } from '../schemas.js';
import { deleteIntegration } from '../settings.js';
import { BEHAVIOURS, runBehaviour } from './behaviours.js';
import { serverKept } from './fields.js';
import { HONEYWELL_KINDS, honeywellWebhookUrl, provisionHoneywell } from './honeywell.js';
import { OAUTH_PARTNERS, partnerAuthorizeUrl } from './oauth-initiate.js';
import { WORKPLACE_BEHAVIOURS } from './workplace-behaviours.js';
import { RefUuid } from '../../../schemas/record-kinds.js';
import { PARTNERS } from './catalogue.js';

const tags = ['Integrations'];

/** Where this server is reached, as the caller reached it: the base of the inbound webhook URLs it answers. */
const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The partners' behaviours (behaviours.ts), Genea's V2 settings, and the Honeywell webhooks the platform's CLI provisions. */
export function behaviourRoutes(app: ApiApp, deps: Deps): void {
  for (const b of [...BEHAVIOURS, ...WORKPLACE_BEHAVIOURS]) {
    operation(
      app,
      {
        path: b.path,
        operationId: b.operationId ?? b.path.split('/').at(-1)!,
        ...(b.successor ? { deprecated: { successor: b.successor } } : {}),
        summary: b.summary,
        tags,
        body: Type.Object(b.body),
        response: ResponseOf({ authError: Field(Type.Boolean({ description: 'the partner refused the credentials' })), ...b.response }),
      },
      async (input, ctx) => runBehaviour(deps, ctx, b, input as Record<string, unknown>),
    );
  }

  const folder = { ENVOY: 'serviceManagement', GOOGLE: 'storage', DROPBOX: 'storage', OFFICE365: 'storage' } as const;
  for (const kind of OAUTH_PARTNERS) {
    const name = `initiate${kind === 'OFFICE365' ? 'Office365' : PARTNERS[kind].title}OAuth`;
    operation(
      app,
      {
        path: `/api/integrations/${folder[kind]}/${name}`,
        operationId: name,
        summary: `Start linking a ${PARTNERS[kind].title} account by OAuth: the partner's authorize URL to send the user to`,
        tags,
        body: Type.Object({
          param: Field(Type.String({ maxLength: 2000, description: 'kept in the sealed state, for the return' })),
          requestUrl: Field(Type.String({ maxLength: 2000, description: 'where the partner sends the user back (default: this server)' })),
          rhombusOrgUserUuid: Field(RefUuid('user')),
        }),
        response: ResponseOf({ redirectUrl: Field(Type.String()) }),
      },
      async (input, ctx, request) => partnerAuthorizeUrl(deps, ctx, kind, input, baseOf(request)),
    );
  }

  // Genea's V2 settings are the badge integration's (modelled in full: badge.service.ts).
  operation(
    app,
    {
      path: '/api/integrations/accessControl/updateGeneaIntegrationV2',
      operationId: 'updateGeneaIntegrationV2',
      summary: 'Update the badge (Genea) integration, V2 settings (whole settings)',
      tags,
      body: Type.Object({
        geneaSettings: Field(
          Type.Object({
            ...BadgeSettings.properties,
            ...serverKept,
            badgeAuthDisablesAlarmMonitoring: Field(Type.Boolean()),
            indexFaces: Field(Type.Boolean()),
            refreshToken: Field(Type.String({ maxLength: 4096 })),
          }),
        ),
      }),
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateBadgeIntegration(deps, ctx, (input.geneaSettings ?? {}) as BadgeSettingsType),
  );
  operation(
    app,
    {
      path: '/api/integrations/accessControl/deleteGeneaIntegrationV2',
      operationId: 'deleteGeneaIntegrationV2',
      summary: 'Delete the badge (Genea) integration',
      tags,
      body: BaseIntegrationRequest,
      response: EnvelopeResponse,
    },
    async (_input, ctx) => deleteIntegration(deps, ctx, 'BADGE', 'Badge integration').then(() => ({})),
  );

  const honeywell = { tags, platformSource: 'newer' as const };
  operation(
    app,
    {
      ...honeywell,
      path: '/api/integrations/accessControl/createOrUpdateHoneywellOnGuardIntegration',
      operationId: 'createOrUpdateHoneywellOnGuardIntegration',
      summary: 'Enable the Honeywell OnGuard integration: answers its webhook URL and the pre-shared secret its posts are signed with',
      description:
        'Idempotent: the door map is kept unless one is sent. OnGuard signs each post with `x-rhombus-signature: sha256=<hex HMAC-SHA256 of the body>`.',
      body: Type.Object({ displayName: Field(Type.String({ maxLength: 200 })), doorInfoMap: Field(Type.Record(Type.String({ maxLength: 200 }), DoorInfo)) }),
      response: ResponseOf({
        webhookUrl: Field(Type.String()),
        presharedSecret: Field(Type.String({ description: 'the HMAC key of the posts (kept sealed)' })),
      }),
    },
    async (input, ctx, request) => {
      const { token, presharedSecret } = await provisionHoneywell(deps, ctx, HONEYWELL_KINDS.onguard, input);
      return { webhookUrl: honeywellWebhookUrl(baseOf(request), token), presharedSecret };
    },
  );
  for (const [vendor, name] of [
    ['elements', 'Elements'],
    ['netbox', 'NetBox'],
  ] as const) {
    operation(
      app,
      {
        ...honeywell,
        path: `/api/integrations/accessControl/getHoneywell${name}WebhookConfig`,
        operationId: `getHoneywell${name}WebhookConfig`,
        summary: `The webhook URL Honeywell ${name} posts access events to (the integration is enabled on first use)`,
        body: BaseIntegrationRequest,
        response: ResponseOf({ webhookUrl: Field(Type.String()) }),
        // Provisions the webhook on first use: a write.
        permission: { kind: 'write' },
      },
      async (_input, ctx, request) => {
        const { token } = await provisionHoneywell(deps, ctx, HONEYWELL_KINDS[vendor], {});
        return { webhookUrl: honeywellWebhookUrl(baseOf(request), token) };
      },
    );
  }
}
