import type { CallerContext } from '../../context.js';
import { fail } from '../../errors.js';
import { isRuuid, newRuuid } from '../../ids.js';
import { sendOutbound, outboundPolicy } from '../../net/outbound.js';
import { keepCameras, keepLocation } from './org-records.js';
import type { BadgeSettings, DoorInfo } from './schemas.js';
import { saveIntegration, type IntegrationDeps, type UpdateResult } from './settings.js';

const CHECK_TIMEOUT_MS = 5000;

/**
 * Asks the badge system whether it accepts the API token: `GET {GATEHOUSE_BADGE_API_URL}/v1/me` with the
 * token as a bearer token. 2xx accepts, 401 and 403 refuse; anything else (or no answer) leaves it unknown.
 */
export async function checkBadgeToken(deps: Pick<IntegrationDeps, 'config'>, apiToken: string): Promise<'accepted' | 'refused' | 'unknown'> {
  const base = deps.config.badgeApiUrl;
  if (!base) return 'accepted';
  try {
    const response = await sendOutbound(
      {
        method: 'GET',
        url: `${base.replace(/\/+$/, '')}/v1/me`,
        headers: { authorization: `Bearer ${apiToken}`, accept: 'application/json' },
        timeoutMs: CHECK_TIMEOUT_MS,
      },
      outboundPolicy(deps.config),
    );
    if (response.status >= 200 && response.status < 300) return 'accepted';
    return response.status === 401 || response.status === 403 ? 'refused' : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Door names that doorInfoMap assigns to more than one location. */
export function misconfiguredDoors(doorInfoMap: Record<string, DoorInfo>): string[] {
  const locationsByName = new Map<string, Set<string>>();
  for (const info of Object.values(doorInfoMap)) {
    if (!info.doorName || !info.locationUuid) continue;
    const locations = locationsByName.get(info.doorName) ?? new Set<string>();
    locations.add(info.locationUuid);
    locationsByName.set(info.doorName, locations);
  }
  return [...locationsByName]
    .filter(([, locations]) => locations.size > 1)
    .map(([name]) => name)
    .sort();
}

/**
 * Saves the badge integration. Enabling needs apiToken and webhookSignatureSecret, and a token the badge
 * system accepts (checked when GATEHOUSE_BADGE_API_URL is set): a refused one is answered with authError and
 * the integration is saved disabled. Doors' cameras and locations that are not the organization's are
 * answered in failedGuids; door names under several locations in misconfiguredDoors.
 */
export async function updateBadgeIntegration(deps: IntegrationDeps, ctx: CallerContext, input: BadgeSettings): Promise<UpdateResult> {
  // platformToken is the specification's name; rhombusToken the reference catalogue's.
  const { rhombusToken, ...settings } = input;
  const normalized = { ...settings, platformToken: settings.platformToken ?? rhombusToken };
  return saveIntegration(deps, ctx, 'BADGE', normalized, async ({ secrets, failedGuids, existing }) => {
    if (secrets.platformToken && !isRuuid(secrets.platformToken))
      throw fail('INVALID_VALUE', 'platformToken: must be a RUUID (22 URL-safe base-64 characters)');
    let enabled = normalized.enabled ?? false;
    if (enabled && (!secrets.apiToken || !secrets.webhookSignatureSecret)) {
      throw fail('INVALID_VALUE', 'apiToken and webhookSignatureSecret: both required to enable the badge integration');
    }
    const given = normalized.doorInfoMap ?? {};
    const doorMisconfigured = misconfiguredDoors(given);
    const doorInfoMap: Record<string, DoorInfo> = {};
    for (const [doorId, info] of Object.entries(given)) {
      doorInfoMap[doorId] = {
        ...info,
        locationUuid: await keepLocation(deps, ctx.orgUuid, info.locationUuid, failedGuids),
        assignedCameraList: await keepCameras(deps, ctx.orgUuid, info.assignedCameraList ?? [], failedGuids),
      };
    }
    const warnings: string[] = [];
    let authError = false;
    if (enabled) {
      const verdict = await checkBadgeToken(deps, secrets.apiToken!);
      if (verdict !== 'accepted') enabled = false;
      if (verdict === 'refused') authError = true;
      if (verdict === 'unknown') warnings.push('the badge system could not be reached to check apiToken: the integration was saved disabled');
    }
    const webhookUuid = normalized.webhookUuid ?? existing?.webhookUuid ?? newRuuid();
    if (doorMisconfigured.length > 0) warnings.push(`door names assigned to more than one location: ${doorMisconfigured.join(', ')}`);
    return {
      enabled,
      authError,
      warnings,
      misconfiguredDoors: doorMisconfigured,
      webhookUuid,
      settings: {
        alertUnauthorizedFaces: normalized.alertUnauthorizedFaces ?? false,
        createSeekPoints: normalized.createSeekPoints ?? false,
        doorInfoMap,
        identifyFacesFromBadge: normalized.identifyFacesFromBadge ?? false,
        migrated: normalized.migrated ?? false,
        saveClips: normalized.saveClips ?? false,
        webhookUuid,
        // Whether the badge system accepted apiToken at the last check (null: not checked).
        tokenValid: enabled || authError ? !authError : null,
      },
    };
  });
}
