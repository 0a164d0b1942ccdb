import type { CallerContext } from '../../../context.js';
import { newRuuid } from '../../../ids.js';
import type { ReadSource } from '../../../store/reader.js';
import { misconfiguredDoors } from '../badge.service.js';
import { checkIntegrationUrl } from '../chat.service.js';
import { keepCameras, keepLocation } from '../org-records.js';
import { integrationV2 } from '../read.service.js';
import { deleteIntegration, findIntegration, publicSettings, saveIntegration, type IntegrationDeps, type UpdateResult } from '../settings.js';
import { checkCredentials } from './adapter.js';
import { answerOf, type AnswerView } from './answers.js';
import { PARTNERS, type PartnerKind, type PartnerSpec } from './catalogue.js';
import { SECRET_TYPES, serverKept, type FieldType } from './fields.js';
import { enabling, type DoorInfo } from '../schemas.js';
import { fail } from '../../../errors.js';

/*
 * The settings engine: one save, one read and one delete for every partner of catalogue.ts, on the core of
 * settings.ts (sealed secrets, masked answers, the audit map, INTEGRATION change events).
 */

/** A field's value as kept: cameras and door locations that are not the organization's go to failedGuids. */
async function keptValue(deps: IntegrationDeps, orgUuid: string, field: string, type: FieldType, value: unknown, failed: string[]): Promise<unknown> {
  const source: ReadSource = deps;
  if (value === undefined || value === null) return null;
  if (type === 'url') return checkIntegrationUrl(deps, field, value as string);
  if (type === 'cameras') return keepCameras(source, orgUuid, value as string[], failed);
  if (type === 'cameraMap') {
    const kept: Record<string, string[]> = {};
    for (const [key, cameras] of Object.entries(value as Record<string, string[]>)) kept[key] = await keepCameras(source, orgUuid, cameras, failed);
    return kept;
  }
  if (type === 'doors') {
    const kept: Record<string, DoorInfo> = {};
    for (const [doorId, info] of Object.entries(value as Record<string, DoorInfo>)) {
      kept[doorId] = {
        ...info,
        locationUuid: await keepLocation(source, orgUuid, info.locationUuid, failed),
        assignedCameraList: await keepCameras(source, orgUuid, info.assignedCameraList ?? [], failed),
      };
    }
    return kept;
  }
  // Location ids (locations, locationMap, byLocation) were resolved against the organization before the handler ran.
  return value;
}

/** The enabling fields, the server-kept ones and the webhook token: what any partner's settings object may hold besides its own fields. */
const COMMON_FIELDS: ReadonlySet<string> = new Set([...Object.keys(enabling), ...Object.keys(serverKept), 'webhookToken']);

/**
 * A settings object's field that neither the partner's settings nor the operation knows is refused, named
 * (issue 34), where the edge elsewhere ignores unknown fields: a misspelt setting would otherwise be lost silently.
 */
function refuseUnknownFields(spec: PartnerSpec, input: Record<string, unknown>, extra: readonly string[]): void {
  const unknown = Object.keys(input).find((name) => !(name in spec.fields) && !COMMON_FIELDS.has(name) && !extra.includes(name));
  if (unknown !== undefined) throw fail('INVALID_REQUEST', `${unknown}: not a field of the ${spec.title} settings`);
}

export interface PartnerUpdateResult extends UpdateResult {
  webhookToken?: string | null;
}

/**
 * Saves a partner's whole settings. Enabling with credentials the partner refuses (asked through its adapter
 * when Gatehouse knows where its API is) saves them disabled and answers authError, as the badge integration does.
 */
export async function savePartnerSettings(
  deps: IntegrationDeps,
  ctx: CallerContext,
  kind: PartnerKind,
  input: Record<string, unknown>,
  extra: readonly string[] = [],
): Promise<PartnerUpdateResult> {
  const spec: PartnerSpec = PARTNERS[kind];
  refuseUnknownFields(spec, input, extra);
  let webhookToken: string | null = null;
  const result = await saveIntegration(deps, ctx, kind, input, async ({ failedGuids, existing, secrets }) => {
    const settings: Record<string, unknown> = {};
    for (const [name, type] of Object.entries(spec.fields)) {
      if (!SECRET_TYPES.has(type)) settings[name] = await keptValue(deps, ctx.orgUuid, name, type, input[name], failedGuids);
    }
    const doors = Object.entries(spec.fields).find(([, type]) => type === 'doors');
    const misconfigured = doors ? misconfiguredDoors((input[doors[0]] ?? {}) as Record<string, DoorInfo>) : [];
    const warnings = misconfigured.length > 0 ? [`door names assigned to more than one location: ${misconfigured.join(', ')}`] : [];

    let enabled = input.enabled === true;
    let authError = false;
    let tokenValid: boolean | null = null;
    if (enabled) {
      const verdict = await checkCredentials(deps, kind, { ...settings, ...secrets });
      if (verdict === 'refused') [enabled, authError, tokenValid] = [false, true, false];
      else if (verdict === 'accepted') tokenValid = true;
      else if (verdict === 'unreachable') {
        enabled = false;
        warnings.push(`${spec.title} could not be reached to check the credentials: the integration was saved disabled`);
      }
    }
    // A partner that posts to Gatehouse (Omnialert) is given a token naming its webhook, kept across saves.
    const webhookUuid = spec.generatesWebhookToken ? (existing?.webhookUuid ?? newRuuid()) : undefined;
    webhookToken = webhookUuid ?? null;
    return {
      enabled,
      authError,
      warnings,
      misconfiguredDoors: misconfigured,
      webhookUuid,
      settings: { ...settings, ...(doors ? { misconfiguredDoors: misconfigured } : {}), tokenValid, ...(webhookUuid ? { webhookToken: webhookUuid } : {}) },
    };
  });
  return spec.generatesWebhookToken ? { ...result, webhookToken } : result;
}

/** A partner's settings as a view answers them (answers.ts): the V2 view (orgIntegrationV2) or the settings object; null when there are none. */
export async function readPartnerSettings(deps: IntegrationDeps, ctx: CallerContext, kind: PartnerKind, view: AnswerView) {
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  if (!integration) return null;
  return answerOf(kind, view, view === 'v2' ? integrationV2(integration) : publicSettings(integration));
}

export async function deletePartnerSettings(deps: IntegrationDeps, ctx: CallerContext, kind: PartnerKind): Promise<void> {
  await deleteIntegration(deps, ctx, kind, `${PARTNERS[kind].title} integration`);
}

/**
 * Changes some fields of a partner's saved settings and keeps the rest (secrets by their masked form): what a
 * behaviour that changes the partner's state (a bot installed, a token refreshed) leaves in the settings.
 */
export async function patchPartnerSettings(deps: IntegrationDeps, ctx: CallerContext, kind: PartnerKind, patch: Record<string, unknown>): Promise<void> {
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  await savePartnerSettings(deps, ctx, kind, { ...(integration ? publicSettings(integration) : {}), ...patch });
}
