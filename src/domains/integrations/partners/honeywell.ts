import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { recordBadgeEvent, type BadgeWebhookEvent, type ReceivedBadgeEvent } from '../badge-events.service.js';
import type { DoorInfo } from '../schemas.js';
import { findIntegration, findIntegrationByWebhook, openSecret, type IntegrationDeps } from '../settings.js';
import { savePartnerSettings } from './engine.js';

/*
 * Honeywell OnGuard, Elements and NetBox: the platform's CLI asks for their inbound webhook (a URL that embeds
 * a token naming the organization's integration) and posts their access events to it. Each vendor's payload
 * is read into a badge event and recorded by the badge pipeline (seek points, clips, the access-event search).
 */

export const HONEYWELL_KINDS = { onguard: 'HONEYWELL_ONGUARD', elements: 'HONEYWELL_ELEMENTS', netbox: 'HONEYWELL_NETBOX' } as const;
export type HoneywellKind = (typeof HONEYWELL_KINDS)[keyof typeof HONEYWELL_KINDS];
const KINDS: readonly string[] = Object.values(HONEYWELL_KINDS);

/** The header OnGuard signs its posts with: `sha256=<hex HMAC-SHA256 of the body with the pre-shared secret>`. */
export const ONGUARD_SIGNATURE_HEADER = 'x-rhombus-signature';

export const honeywellWebhookUrl = (base: string, token: string) => `${base}/webhooks/honeywell/${token}`;

/**
 * Enables the organization's integration of the vendor (created on first use), keeping its door map unless one
 * is given, and answers its webhook token and, for OnGuard, its pre-shared secret (generated once, sealed at rest).
 */
export async function provisionHoneywell(
  deps: IntegrationDeps,
  ctx: CallerContext,
  kind: HoneywellKind,
  given: { displayName?: string | null; doorInfoMap?: Record<string, DoorInfo> | null },
): Promise<{ token: string; presharedSecret: string | null }> {
  const existing = await findIntegration(deps, ctx.orgUuid, kind);
  const keep = existing?.enabled && !given.displayName && !given.doorInfoMap;
  let presharedSecret = existing ? openSecret(deps, existing, 'presharedSecret') : null;
  if (!keep) {
    if (kind === 'HONEYWELL_ONGUARD') presharedSecret ??= randomBytes(24).toString('base64url');
    await savePartnerSettings(deps, ctx, kind, {
      ...(existing?.settings ?? {}),
      ...(given.displayName ? { displayName: given.displayName } : {}),
      ...(given.doorInfoMap ? { doorInfoMap: given.doorInfoMap } : {}),
      enabled: true,
      ...(presharedSecret ? { presharedSecret } : {}),
    });
  }
  const saved = (await findIntegration(deps, ctx.orgUuid, kind))!;
  return { token: saved.webhookUuid!, presharedSecret };
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);
const epochMs = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
};

/** A vendor's access event read as a badge event; null when it is not an access event Gatehouse records. */
export function honeywellEvent(kind: HoneywellKind, body: Record<string, unknown>): BadgeWebhookEvent | null {
  if (kind === 'HONEYWELL_ONGUARD') {
    const door = [text(body.controller_id), text(body.device_id)];
    if (!door[0] || !door[1]) return null;
    const name = [text(body.cardholder_first_name), text(body.cardholder_last_name)].filter(Boolean).join(' ');
    return {
      eventType: text(body.alarm_name) ?? text(body.event_type) ?? 'Granted Access',
      doorId: `${door[0]}:${door[1]}`,
      timestampMs: epochMs(body.timestamp),
      badgeHolder: name ? { name } : null,
      badgeStatus: text(body.badge_status_name),
      badgeType: text(body.badge_type_name),
      areaEntering: text(body.area_entering_name),
      areaExiting: text(body.area_exiting_name),
      entryMade: typeof body.access_granted_entry_made === 'boolean' ? body.access_granted_entry_made : null,
      eventId: text(body.serial_number) ?? null,
    };
  }
  if (kind === 'HONEYWELL_NETBOX') {
    const door = text(body.portalKey);
    if (!door) return null;
    return {
      eventId: text(body.id),
      eventType: text(body.eventType) ?? 'Access Granted',
      doorId: door,
      timestampMs: epochMs(body.timestamp),
      badgeHolder: text(body.personName) ? { name: text(body.personName) } : null,
      badgeStatus: text(body.credentialStatus),
      areaEntering: text(body.portalName),
      entryMade: typeof body.entryMade === 'boolean' ? body.entryMade : null,
    };
  }
  // Elements posts a thin event: who and where come from its own API, which Gatehouse does not call; a basic grant.
  const door = text(body.deviceId);
  if (!door) return null;
  return {
    eventId: text(body.id),
    eventType: text(body.eventType) ?? 'Access Granted',
    doorId: door,
    timestampMs: epochMs(body.timestamp),
    areaEntering: text(body.deviceName),
  };
}

/** Receives a Honeywell post: the token names the integration; OnGuard's must be signed with its pre-shared secret. */
export async function receiveHoneywellPost(
  deps: IntegrationDeps,
  post: { token: string; signature?: string; rawBody: Buffer },
): Promise<ReceivedBadgeEvent | null> {
  const log = deps.log.child({ component: 'integrations.honeywell' });
  const refuse = (reason: string) => {
    log.warn({ reason }, 'honeywell webhook post refused');
    return fail('INVALID_SIGNATURE');
  };
  const integration = await findIntegrationByWebhook(deps, post.token);
  if (!integration || !KINDS.includes(integration.kind)) throw refuse('unknown webhook');
  const kind = integration.kind as HoneywellKind;
  let digest: string | null = null;
  if (kind === 'HONEYWELL_ONGUARD') {
    const secret = openSecret(deps, integration, 'presharedSecret');
    const expected = secret ? `sha256=${createHmac('sha256', secret).update(post.rawBody).digest('hex')}` : null;
    const presented = Buffer.from(post.signature ?? '');
    if (!expected || presented.length !== expected.length || !timingSafeEqual(presented, Buffer.from(expected))) throw refuse('bad signature');
    digest = expected.slice('sha256='.length);
  }
  if (!integration.enabled) throw fail('NOT_ALLOWED', 'the integration is disabled');
  let body: unknown;
  try {
    body = JSON.parse(post.rawBody.toString('utf8'));
  } catch {
    throw fail('INVALID_REQUEST', 'Body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw fail('INVALID_REQUEST', 'Body is not a JSON object');
  const event = honeywellEvent(kind, body as Record<string, unknown>);
  if (!event) throw fail('INVALID_REQUEST', 'Body is not an access event: it names no door');
  return recordBadgeEvent(deps, integration, event, digest, refuse);
}
