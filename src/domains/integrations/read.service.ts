import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { misconfiguredDoors } from './badge.service.js';
import { BadgeIntegrationV2, VideoAnalyticsIntegrationV2, type DoorInfo } from './schemas.js';
import { findIntegration, listIntegrations, publicSettings, type Integration } from './settings.js';
import { isPartnerKind, PARTNERS, type PartnerSpec } from './partners/catalogue.js';
import { answerOf, type AnswerView } from './partners/answers.js';
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
const v2Name = (kind: IntegrationKind): string => (isPartnerKind(kind) ? PARTNERS[kind].integration : (V2_NAMES[kind] ?? kind));

/** The reference's IBaseIntegrationType view of an integration: its settings, owner and audit map. */
export function integrationV2(integration: Integration): Record<string, unknown> {
  const settings = publicSettings(integration);
  const base = {
    ...settings,
    integration: v2Name(integration.kind),
    enabled: integration.enabled,
    orgUuid: integration.orgUuid,
    userUuid: (settings.userUuid as string | undefined) ?? (settings.enablingUserUuid as string | null) ?? null,
    integrationAuditMap: integration.auditMap,
  };
  if (integration.kind !== 'BADGE') return base;
  return { ...base, tokenValid: settings.tokenValid ?? null, misconfiguredDoors: misconfiguredDoors((settings.doorInfoMap ?? {}) as Record<string, DoorInfo>) };
}

/** The V2 answer types of the kinds modelled in full: their V2 answers carry exactly these fields. */
const CORE_V2 = { BADGE: BadgeIntegrationV2, VIDEO_ANALYTICS: VideoAnalyticsIntegrationV2 };
type CoreV2Kind = keyof typeof CORE_V2;

function coreV2(integration: Integration & { kind: CoreV2Kind }): Record<string, unknown> {
  const all = integrationV2(integration);
  return Object.fromEntries(Object.keys(CORE_V2[integration.kind].properties).flatMap((name) => (all[name] === undefined ? [] : [[name, all[name]]])));
}

export async function getIntegrationV2(deps: Pick<Deps, 'store'>, ctx: CallerContext, kind: CoreV2Kind): Promise<Record<string, unknown> | null> {
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  return integration ? coreV2({ ...integration, kind }) : null;
}

const SETTINGS_NAMES: Record<CoreIntegrationKind, string> = {
  SMART_SENSOR: 'haloSettings',
  CHAT: 'mattermostSettings',
  BADGE: 'geneaSettings',
  VIDEO_ANALYTICS: 'lumeoSettings',
  TICKETING: 'serviceNowSettings',
  WEBHOOK: 'webhookSettings',
};

/** A kind's entry in a listing: its name there and its answer; null when that listing leaves it out (answers.ts). */
function listed(integration: Integration, view: AnswerView): [string, Record<string, unknown>] | null {
  const kind = integration.kind;
  if (isPartnerKind(kind)) {
    const spec: PartnerSpec = PARTNERS[kind];
    const name = view === 'v2' ? spec.integration : spec.listedAs;
    const answer = name && answerOf(kind, view, view === 'v2' ? integrationV2(integration) : publicSettings(integration));
    return name && answer ? [name, answer] : null;
  }
  if (view === 'settings') return [SETTINGS_NAMES[kind], publicSettings(integration)];
  return kind in CORE_V2 ? [v2Name(kind), coreV2({ ...integration, kind: kind as CoreV2Kind })] : null;
}

/**
 * Every integration of the organization under the reference's settings names. An organization that set its
 * webhooks up with updateWebhookIntegrationV2 only is shown the first activity webhook as its webhookSettings.
 */
export async function getOrgIntegrations(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, unknown>> {
  const [all, activity] = await Promise.all([listIntegrations(deps, ctx.orgUuid), listOrgEndpoints(deps, ctx.orgUuid, ['ACTIVITY'])]);
  const first = activity[0];
  const v2Webhook = first && { enabled: !first.disabled, webhookUrl: first.url, webhookSecret: first.secretMasked };
  return {
    orgUuid: ctx.orgUuid,
    ...(v2Webhook && { webhookSettings: v2Webhook }),
    ...Object.fromEntries(all.map((i) => listed(i, 'settings')).filter((e) => e !== null)),
  };
}

/** The integrations the reference's V2 listing knows (GENEA, LUMEO, the partners with a V2 type), by their IntegrationEnum name. */
export async function getOrgIntegrationsV2(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, unknown>> {
  const all = await listIntegrations(deps, ctx.orgUuid);
  return Object.fromEntries(all.map((i) => listed(i, 'v2')).filter((e) => e !== null));
}
