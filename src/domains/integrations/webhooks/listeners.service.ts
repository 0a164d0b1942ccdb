import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import { checkIntegrationUrl } from '../chat.service.js';
import type { IntegrationDeps } from '../settings.js';
import type { Activity } from '../../../schemas/activities.js';
import { addEndpoint, findOrgEndpoint, listOrgEndpoints, removeEndpoint, type Endpoint } from './endpoints.service.js';

/*
 * A developer's event listeners (developer/*): a URI that receives the organization's policy alerts of some
 * activities, of one device or all. Each is an endpoint of the webhook machinery (purpose LISTENER), so its
 * deliveries are the webhooks': the outbox, its retries and its delivery log.
 */

export interface EventListenerInput {
  activities?: string[] | null;
  deviceUuid?: string | null;
  hostname?: string | null;
  uri?: string | null;
  clientCertificate?: string[] | null;
  clientKey?: string[] | null;
  trustedCertificate?: string[] | null;
}

const pem = (parts: string[] | null | undefined) => (parts && parts.length > 0 ? parts.join('') : null);
const LISTENER_KEY_IDENTITY = (orgUuid: string) => `event-listener-key:${orgUuid}`;

/** A listener as answered: its client key is never returned. */
export function eventListenerView(e: Endpoint) {
  return {
    uuid: e.uuid,
    orgUuid: e.orgUuid,
    uri: e.url,
    hostname: e.listener?.hostname ?? null,
    activities: (e.listener?.activities ?? []) as Activity[],
    deviceUuid: e.listener?.deviceUuid ?? null,
    clientCertificate: e.listener?.clientCertificate ? [e.listener.clientCertificate] : null,
    trustedCertificate: e.listener?.trustedCertificate ? [e.listener.trustedCertificate] : null,
  };
}

export async function createEventListener(deps: IntegrationDeps, ctx: CallerContext, input: EventListenerInput | null | undefined): Promise<string> {
  if (!input?.uri) throw fail('INVALID_VALUE', 'eventListner.uri: where the events are posted');
  const url = await checkIntegrationUrl(deps, 'eventListner.uri', input.uri);
  if (input.deviceUuid && !(await findDevice(deps, ctx.orgUuid, input.deviceUuid))) throw fail('NOT_FOUND', `Device ${input.deviceUuid}`);
  const clientKey = pem(input.clientKey);
  const endpoint = await write(deps, ctx, (w) =>
    addEndpoint(deps, w, {
      purpose: 'LISTENER',
      url,
      secret: null,
      disabled: false,
      filter: {
        activities: [...new Set(input.activities ?? [])],
        deviceUuid: input.deviceUuid ?? null,
        hostname: input.hostname ?? null,
        clientCertificate: pem(input.clientCertificate),
        trustedCertificate: pem(input.trustedCertificate),
        sealedClientKey: clientKey ? deps.secrets.seal(clientKey, LISTENER_KEY_IDENTITY(ctx.orgUuid)) : null,
      },
    }),
  );
  return endpoint.uuid;
}

export async function deleteEventListener(deps: IntegrationDeps, ctx: CallerContext, uuid: string | null | undefined): Promise<void> {
  await write(deps, ctx, async (w) => {
    const e = uuid ? await findOrgEndpoint(w, ctx.orgUuid, uuid) : null;
    if (!e || e.purpose !== 'LISTENER') throw fail('NOT_FOUND', `Event listener ${uuid ?? ''}`.trim());
    await removeEndpoint(w, e);
  });
}

/** The organization's listeners; with a device, those that hear it (its own and those of every device). */
export async function eventListeners(deps: IntegrationDeps, ctx: CallerContext, deviceUuid?: string | null) {
  if (deviceUuid !== undefined && !(deviceUuid && (await findDevice(deps, ctx.orgUuid, deviceUuid))))
    throw fail('NOT_FOUND', `Device ${deviceUuid ?? ''}`.trim());
  const all = await listOrgEndpoints(deps, ctx.orgUuid, ['LISTENER']);
  return all.filter((e) => deviceUuid === undefined || !e.listener?.deviceUuid || e.listener.deviceUuid === deviceUuid).map(eventListenerView);
}
