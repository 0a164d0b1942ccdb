import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { write } from '../../bus/write.js';
import { newSigningSecret } from '../../outbox/standard-webhooks.js';
import * as store from './store.js';

type SecretDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;
const identity = (orgUuid: string) => `webhook-secret:${orgUuid}`;

/** The organization's webhook signing secret, created on first use (concurrent first uses agree on one). */
export async function webhookSigningSecret(deps: SecretDeps, orgUuid: string): Promise<string> {
  const sealed = await store.findWebhookSecret(deps.store.db, orgUuid);
  if (sealed) return deps.secrets.open(sealed, identity(orgUuid));
  await store.putWebhookSecret(deps.store.db, orgUuid, deps.secrets.seal(newSigningSecret(), identity(orgUuid)), deps.clock.now(), false);
  return deps.secrets.open((await store.findWebhookSecret(deps.store.db, orgUuid))!, identity(orgUuid));
}

export async function getWebhookSigningSecret(deps: SecretDeps, ctx: CallerContext): Promise<string> {
  return webhookSigningSecret(deps, ctx.orgUuid);
}

/** Replaces the caller's signing secret: deliveries signed from now on use the new one. */
export async function rotateWebhookSigningSecret(deps: SecretDeps, ctx: CallerContext): Promise<string> {
  const secret = newSigningSecret();
  await write(deps, ctx, async (w) => {
    await store.putWebhookSecret(w.tx, ctx.orgUuid, deps.secrets.seal(secret, identity(ctx.orgUuid)), w.nowMs, true);
    w.audit({ entity: 'WEBHOOK_SIGNING_SECRET', entityUuid: ctx.orgUuid, action: 'ROTATE' });
  });
  return secret;
}
