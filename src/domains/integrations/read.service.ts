import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { misconfiguredDoors } from './badge.service.js';
import type { DoorInfo } from './schemas.js';
import { findIntegration, listIntegrations, publicSettings, type Integration } from './settings.js';
import { isPartnerKind, PARTNERS } from './partners/catalogue.js';
import type { CoreIntegrationKind, IntegrationKind } from './tables.js';
import { listOrgEndpoints } from './webhooks/endpoints.service.js';

/** An integration's settings as the REST API answers them (secrets masked), or null when it has none. */
export async function getIntegrationSettings(deps: Pick<Deps, 'store'>, ctx: CallerContext, kind: IntegrationKind): Promise<Record<string, unknown> | null> {
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  return integration ? publicSettings(integration) : null;
}

/** The reference catalogue's integration name of each kind modelled in full that has one (IntegrationEnum). */
const V2_NAMES: Partial<Record<CoreIntegrationKind, 'GENEA' | 'LUMEO'>> = { BADGE: 'GENEA', VIDEO_ANALYTICS: 'LUMEO' };
/** A kind's name in the V2 answers: a partner's from its table entry. */
const v2Name = (kind: IntegrationKind): string | undefined => (isPartnerKind(kind) ? PARTNERS[kind].integration : V2_NAMES[kind]);

/** The reference's IBaseIntegrationType view of an integration: its settings, owner and audit map. */
export function integrationV2(integration: Integration): Record<string, unknown> {
  const settings = publicSettings(integration);
  const base = {
    ...settings,
    integration: v2Name(integration.kind) ?? integration.kind,
    enabled: integration.enabled,
    orgUuid: integration.orgUuid,
    userUuid: (settings.userUuid as string | undefined) ?? (settings.enablingUserUuid as string | null) ?? null,
    integrationAuditMap: integration.auditMap,
  };
  if (integration.kind !== 'BADGE') return base;
  return { ...base, tokenValid: settings.tokenValid ?? null, misconfiguredDoors: misconfiguredDoors((settings.doorInfoMap ?? {}) as Record<string, DoorInfo>) };
}

export async function getIntegrationV2(deps: Pick<Deps, 'store'>, ctx: CallerContext, kind: IntegrationKind): Promise<Record<string, unknown> | null> {
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  return integration ? integrationV2(integration) : null;
}

const SETTINGS_NAMES: Record<CoreIntegrationKind, string> = {
  SMART_SENSOR: 'haloSettings',
  CHAT: 'mattermostSettings',
  BADGE: 'geneaSettings',
  VIDEO_ANALYTICS: 'lumeoSettings',
  TICKETING: 'serviceNowSettings',
  WEBHOOK: 'webhookSettings',
};

/**
 * Every integration of the organization under the reference's settings names. An organization that set its
 * webhooks up with updateWebhookIntegrationV2 only is shown the first activity webhook as its webhookSettings.
 */
export async function getOrgIntegrations(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, unknown>> {
  const [all, activity] = await Promise.all([listIntegrations(deps, ctx.orgUuid), listOrgEndpoints(deps, ctx.orgUuid, ['ACTIVITY'])]);
  const nameOf = (kind: IntegrationKind) => (isPartnerKind(kind) ? PARTNERS[kind].listedAs : SETTINGS_NAMES[kind]);
  const first = activity[0];
  const v2Webhook = first && { enabled: !first.disabled, webhookUrl: first.url, webhookSecret: first.secretMasked };
  return { orgUuid: ctx.orgUuid, ...(v2Webhook && { webhookSettings: v2Webhook }), ...Object.fromEntries(all.map((i) => [nameOf(i.kind), publicSettings(i)])) };
}

/** The integrations the reference's V2 listing knows (GENEA, LUMEO, the partners), by their IntegrationEnum name. */
export async function getOrgIntegrationsV2(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, unknown>> {
  const all = await listIntegrations(deps, ctx.orgUuid);
  return Object.fromEntries(all.filter((i) => v2Name(i.kind)).map((i) => [v2Name(i.kind)!, integrationV2(i)]));
}
