import type { Deps } from '../../../deps.js';
import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { latestChangeEventId } from '../../changes/service.js';
import { findDevice } from '../../devices/service.js';
import { findDoor } from '../../access/service.js';
import { checkIntegrationUrl } from '../chat.service.js';
import { deleteIntegration, saveIntegration, type IntegrationDeps, type UpdateResult } from '../settings.js';
import type { WebhookSettings } from '../schemas.js';
import {
  addEndpoint,
  changeEndpoint,
  findEndpointOf,
  findOrgEndpoint,
  generatedSecret,
  listOrgEndpoints,
  removeEndpoint,
  type Endpoint,
} from './endpoints.service.js';
import type { SubscribeZapierWebhookRequest, UpdateWebhookIntegrationV2Request, WebhookInfo, WebhooksInput } from './schemas.js';
import type { EndpointPurpose } from './tables.js';

const V2_PURPOSES: readonly EndpointPurpose[] = ['ACTIVITY', 'DIAGNOSTIC'];
const WHAT_V2 = 'Webhook integration';

/** Saves the classic webhook: enabled needs a webhookUrl that outbound requests may reach; the secret is sealed. */
export async function updateWebhookIntegration(deps: IntegrationDeps, ctx: CallerContext, input: WebhookSettings): Promise<UpdateResult> {
  return saveIntegration(deps, ctx, 'WEBHOOK', input, async ({ existing }) => {
    const enabled = input.enabled ?? false;
    if (enabled && !input.webhookUrl) throw fail('INVALID_VALUE', 'webhookUrl: required to enable the webhook integration');
    const webhookUrl = input.webhookUrl ? await checkIntegrationUrl(deps, 'webhookUrl', input.webhookUrl) : null;
    // Changes from before it was enabled (or pointed elsewhere) are not sent to it, even by a catch-up replay.
    const unchanged = existing?.enabled && existing.settings.webhookUrl === webhookUrl;
    const sinceChangeId = unchanged ? existing.settings.sinceChangeId : await latestChangeEventId(deps.store.db);
    return { enabled, settings: { webhookUrl, sinceChangeId } };
  });
}

export async function deleteWebhookIntegration(deps: IntegrationDeps, ctx: CallerContext): Promise<void> {
  await deleteIntegration(deps, ctx, 'WEBHOOK', 'Webhook integration');
}

const infoOf = (e: Endpoint): WebhookInfo => ({ webhookDisabled: e.disabled, webhookSecret: e.secretMasked });

/**
 * The V2 webhooks (WebhooksType, secrets masked); left out when the organization has none. The classic webhook is
 * not among them: getOrgIntegrations lists it (webhookSettings), as the catalogue has it.
 */
export async function getWebhookIntegration(deps: IntegrationDeps, ctx: CallerContext) {
  const endpoints = await listOrgEndpoints(deps, ctx.orgUuid, V2_PURPOSES);
  const of = (purpose: EndpointPurpose) => endpoints.filter((e) => e.purpose === purpose);
  const v2 =
    endpoints.length === 0
      ? null
      : {
          integration: 'WEBHOOKS',
          enabled: endpoints.some((e) => !e.disabled),
          orgUuid: ctx.orgUuid,
          userUuid: null,
          integrationAuditMap: {},
          activityWebhooksV2: Object.fromEntries(of('ACTIVITY').map((e) => [e.url, infoOf(e)])),
          diagnosticWebhooksV2: Object.fromEntries(of('DIAGNOSTIC').map((e) => [e.url, infoOf(e)])),
          activityWebhooks: Object.fromEntries(of('ACTIVITY').map((e) => [e.url, e.secretMasked ?? ''])),
          diagnosticWebhooks: Object.fromEntries(of('DIAGNOSTIC').map((e) => [e.url, e.secretMasked ?? ''])),
        };
  // None: orgIntegrationV2 is left out (the catalogue's record is not nullable).
  return v2 ? { orgIntegrationV2: v2 } : {};
}

/** A secret sent with a URL: kept when it is the stored one's masked form, refused when masked otherwise. */
function givenSecret(field: string, given: string | null | undefined, existing: Endpoint | null): string | undefined {
  if (!given || (existing && given === existing.secretMasked)) return undefined;
  if (given.startsWith('****'))
    throw fail('INVALID_VALUE', `${field}: a masked value that is not the stored secret's; send the secret itself, or its masked form to keep it`);
  return given;
}

interface WantedUrl {
  purpose: EndpointPurpose;
  url: string;
  disabled: boolean;
  secret: string | undefined;
}

/** The URLs an updatedWebhookSettings names, from the V2 maps and the older URL-to-secret maps. */
function wantedUrls(settings: WebhooksInput): WantedUrl[] {
  const wanted = new Map<string, WantedUrl>();
  const add = (purpose: EndpointPurpose, url: string, info: Partial<WebhookInfo>) => {
    const disabled = settings.enabled === false || (info.webhookDisabled ?? false);
    wanted.set(`${purpose}:${url}`, { purpose, url, disabled, secret: info.webhookSecret ?? undefined });
  };
  for (const [url, secret] of Object.entries(settings.activityWebhooks ?? {})) add('ACTIVITY', url, { webhookSecret: secret });
  for (const [url, secret] of Object.entries(settings.diagnosticWebhooks ?? {})) add('DIAGNOSTIC', url, { webhookSecret: secret });
  for (const [url, info] of Object.entries(settings.activityWebhooksV2 ?? {})) add('ACTIVITY', url, info);
  for (const [url, info] of Object.entries(settings.diagnosticWebhooksV2 ?? {})) add('DIAGNOSTIC', url, info);
  return [...wanted.values()];
}

/**
 * Adds or changes V2 webhook URLs. With webhookUrl: that one URL (isDiagnostic picks the list, disabled its
 * state). With updatedWebhookSettings: the whole set, URLs left out are removed. A new URL gets a generated
 * signing secret (unless the settings give one), answered this once; at most one can be generated per call.
 */
export async function updateWebhookIntegrationV2(
  deps: IntegrationDeps,
  ctx: CallerContext,
  input: UpdateWebhookIntegrationV2Request,
): Promise<{ webhookSecret: string | null }> {
  let wanted: WantedUrl[];
  let replaceAll = false;
  if (input.webhookUrl) {
    wanted = [{ purpose: input.isDiagnostic ? 'DIAGNOSTIC' : 'ACTIVITY', url: input.webhookUrl, disabled: input.disabled ?? false, secret: undefined }];
  } else if (input.updatedWebhookSettings) {
    wanted = wantedUrls(input.updatedWebhookSettings);
    replaceAll = true;
  } else {
    throw fail('INVALID_VALUE', 'give webhookUrl (one URL) or updatedWebhookSettings (the whole set of URLs)');
  }
  for (const w of wanted) await checkIntegrationUrl(deps, 'webhookUrl', w.url);

  return write(deps, ctx, async (w) => {
    let generated: string | null = null;
    for (const want of wanted) {
      const existing = await findEndpointOf(w, ctx.orgUuid, want.purpose, want.url);
      const secret = givenSecret(`${want.url}: webhookSecret`, want.secret, existing);
      if (existing) {
        await changeEndpoint(deps, w, existing, { disabled: want.disabled, ...(secret ? { secret } : {}) });
        continue;
      }
      let plaintext = secret;
      if (!plaintext) {
        if (generated)
          throw fail(
            'INVALID_VALUE',
            'updatedWebhookSettings: more than one new URL without a webhookSecret; add new URLs one at a time (webhookUrl) so that each generated secret can be answered',
          );
        plaintext = generated = generatedSecret();
      }
      await addEndpoint(deps, w, { purpose: want.purpose, url: want.url, secret: plaintext, disabled: want.disabled });
    }
    if (replaceAll) {
      const keep = new Set(wanted.map((x) => `${x.purpose}:${x.url}`));
      for (const e of await listOrgEndpoints(w, ctx.orgUuid, V2_PURPOSES)) if (!keep.has(`${e.purpose}:${e.url}`)) await removeEndpoint(w, e);
    }
    return { webhookSecret: generated };
  });
}

/** Removes every V2 webhook URL of the organization. */
export async function deleteWebhookIntegrationV2(deps: IntegrationDeps, ctx: CallerContext): Promise<void> {
  await write(deps, ctx, async (w) => {
    const endpoints = await listOrgEndpoints(w, ctx.orgUuid, V2_PURPOSES);
    if (endpoints.length === 0) throw fail('NOT_FOUND', WHAT_V2);
    for (const e of endpoints) await removeEndpoint(w, e);
  });
}

/** Whether a uuid names a record of the organization a subscription can filter on. */
async function knownSubject(deps: IntegrationDeps, ctx: CallerContext, uuid: string, ruleUuids: ReadonlySet<string>): Promise<boolean> {
  if (ruleUuids.has(uuid)) return true;
  if (await findDevice(deps, ctx.orgUuid, uuid)) return true;
  return (await findDoor(deps, ctx.orgUuid, uuid)) !== null;
}

function checkRange(name: string, lower: number | null | undefined, upper: number | null | undefined) {
  if (lower != null && upper != null && lower > upper) throw fail('INVALID_VALUE', `${name}LowerThreshold must not be above ${name}UpperThreshold`);
}

/**
 * Subscribes hookUrl to one kind of event (zapEnum), optionally of listed devices, doors or rules only;
 * answers the subscription's webhookId. Identifiers that are not the organization's are refused, as if
 * unknown.
 */
export async function subscribeZapierWebhook(
  deps: IntegrationDeps & Pick<Deps, 'recordFinders'>,
  ctx: CallerContext,
  input: SubscribeZapierWebhookRequest | undefined,
): Promise<{ webhookId: string }> {
  if (!input || typeof input !== 'object') throw fail('INVALID_VALUE', 'a subscription needs a JSON body with hookUrl and zapEnum');
  if (!input.hookUrl) throw fail('INVALID_VALUE', 'hookUrl: required');
  if (!input.zapEnum) throw fail('INVALID_VALUE', 'zapEnum: required (BUTTON_EVENTS, DOOR_SENSOR_EVENTS, ENVIRONMENTAL_SENSOR_EVENTS or RULE_EVENTS)');
  checkRange('temp', input.tempLowerThreshold, input.tempUpperThreshold);
  checkRange('humidity', input.humidityLowerThreshold, input.humidityUpperThreshold);
  const url = await checkIntegrationUrl(deps, 'hookUrl', input.hookUrl);
  const uuids = input.uuids ?? [];
  const ruleUuids = input.zapEnum === 'RULE_EVENTS' && uuids.length > 0 ? await deps.recordFinders.buttonRule(deps, ctx.orgUuid, uuids) : new Set<string>();
  for (const uuid of uuids) if (!(await knownSubject(deps, ctx, uuid, ruleUuids))) throw fail('NOT_FOUND', `uuids: ${uuid}`);
  const endpoint = await write(deps, ctx, (w) =>
    addEndpoint(deps, w, {
      purpose: 'SUBSCRIPTION',
      url,
      secret: null,
      disabled: false,
      backoffSec: input.backoffSec ?? null,
      filter: {
        zapEnum: input.zapEnum!,
        uuids,
        doorState: input.doorState ?? null,
        tempLowerThreshold: input.tempLowerThreshold ?? null,
        tempUpperThreshold: input.tempUpperThreshold ?? null,
        humidityLowerThreshold: input.humidityLowerThreshold ?? null,
        humidityUpperThreshold: input.humidityUpperThreshold ?? null,
      },
    }),
  );
  return { webhookId: endpoint.uuid };
}

export async function unsubscribeZapierWebhook(deps: IntegrationDeps, ctx: CallerContext, webhookId: string | null | undefined): Promise<void> {
  if (!webhookId) throw fail('INVALID_VALUE', 'webhookId: required');
  await write(deps, ctx, async (w) => {
    const e = await findOrgEndpoint(w, ctx.orgUuid, webhookId);
    if (!e || e.purpose !== 'SUBSCRIPTION') throw fail('NOT_FOUND', 'Webhook subscription');
    await removeEndpoint(w, e);
  });
}
