import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { keyRefusal } from '../keys/api-keys.js';
import { partnerGroupOfUser } from './partner-membership.js';
import { asPartner } from './grants.js';
import { listApiKeys, revokeApiKey, type ApiKeyRecord } from '../service.js';

/**
 * The partner's API keys, as the platform's API token records: never a key, nor its digest; only its id, kind,
 * last four characters and the permission group it acts with (its user's partner group).
 */
export async function partnerTokens(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  const home = asPartner(ctx);
  const now = deps.clock.now();
  const live = (await listApiKeys(deps, { orgUuid: home.orgUuid })).filter(
    (k) => keyRefusal({ revoked_at_ms: k.revokedAtMs, expires_at_ms: k.expiresAtMs }, now) === null,
  );
  const groups = new Map<string, string | null>();
  for (const k of live) if (k.userUuid && !groups.has(k.userUuid)) groups.set(k.userUuid, (await partnerGroupOfUser(deps, k.userUuid))?.groupUuid ?? null);
  return live.map((k: ApiKeyRecord) => ({
    tokenUuid: k.keyId,
    orgUuid: home.orgUuid,
    displayName: `${k.kind} key …${k.hint}`,
    authType: k.certificate ? ('CERT' as const) : ('API_TOKEN' as const),
    clientType: k.kind === 'partner' ? ('PARTNER_DEVELOPER' as const) : ('DEVELOPER' as const),
    permissionGroupUuid: k.userUuid ? (groups.get(k.userUuid) ?? null) : null,
    hashed: true,
    clientDetails: { createdAtMs: String(k.createdAtMs), ...(k.expiresAtMs ? { expiresAtMs: String(k.expiresAtMs) } : {}) },
  }));
}

/** revokeApiToken: one of the partner's keys stops working at once (its stream sessions close); another organization's is unknown. */
export async function revokePartnerToken(
  deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'config' | 'keyCache'>,
  ctx: CallerContext,
  tokenUuid: string,
): Promise<void> {
  const home = asPartner(ctx);
  await revokeApiKey(deps, { orgUuid: home.orgUuid, keyId: tokenUuid }, home);
}
