import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { listFailedAttempts } from '../../outbox/service.js';
import { rowUuid } from '../events/row-uuid.js';
import { targetOfDedupeKey, WEBHOOK_KINDS } from './webhooks/dispatch.js';

/** The most diagnostics one call answers (newest first), and the default range. */
export const DIAGNOSTICS_MAX = 1000;
const WEEK_MS = 7 * 86_400_000;

/**
 * getIntegrationDiagnosticEvents: the integrations' failures the outbox recorded, newest first, in
 * [timestampMsAfter, timestampMsBefore) (default: the week before now): each failed attempt to post to the
 * organization's webhooks (EXTERNAL_WEBHOOK_FAILURE; an automation subscription's under ZAPIER) or to its chat
 * integration (NOTIFICATION_FAILURE), naming the target. At most DIAGNOSTICS_MAX.
 */
export async function getIntegrationDiagnosticEvents(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: CallerContext,
  input: { timestampMsAfter?: number | null; timestampMsBefore?: number | null },
) {
  const beforeMs = input.timestampMsBefore ?? deps.clock.now();
  const fromMs = input.timestampMsAfter ?? beforeMs - WEEK_MS;
  if (fromMs > beforeMs) throw fail('INVALID_VALUE', 'timestampMsAfter must not be after timestampMsBefore');
  // Chat posts (of alerts and of rules) and webhook deliveries are keyed CHAT:<integration>:... and WEBHOOK:<target>:...
  const failures = await listFailedAttempts(deps, ctx.orgUuid, { dedupePrefixes: ['CHAT:', 'WEBHOOK:'], fromMs, beforeMs, limit: DIAGNOSTICS_MAX });
  return failures.map((f) => {
    const chat = f.dedupeKey.startsWith('CHAT:');
    return {
      uuid: rowUuid('attempt', f.attemptId),
      orgUuid: ctx.orgUuid,
      integration: chat ? 'UNKNOWN' : f.kind === WEBHOOK_KINDS.SUBSCRIPTION ? 'ZAPIER' : 'WEBHOOKS',
      activity: chat ? 'NOTIFICATION_FAILURE' : 'EXTERNAL_WEBHOOK_FAILURE',
      thirdPartyDeviceId: targetOfDedupeKey(f.dedupeKey),
      thirdPartyDeviceName: f.targetUrl,
      timestamp: new Date(f.atMs).toISOString(),
      statusCode: f.statusCode,
      error: f.error,
      deliveryUuid: f.deliveryUuid,
    };
  });
}
