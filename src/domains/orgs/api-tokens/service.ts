import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { write } from '../../../bus/write.js';
import { certificateFingerprint, keyRefusal } from '../keys/api-keys.js';
import { asPartner } from '../partners/grants.js';
import { issueApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../service.js';
import type { ClientType } from './schemas.js';
import { readCsr, signClientCertificate } from './certificate-authority.js';
import * as store from './store.js';
import type { ApiTokenApplicationsTable } from './tables.js';

/*
 * API tokens as the platform's integrations pages and its CLI see them: the organization's API keys, with how
 * each was asked for when submitApiTokenApplication made it. An application answers a real key at once (the
 * CLI's login makes one with its OAuth access token): API_TOKEN a plain key, CERT a key that the certificate
 * schemes accept only with the client certificate Gatehouse's authority signed for the application's CSR.
 */

type TokenDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config' | 'secrets' | 'keyCache'>;

export interface ApplicationInput {
  authType?: 'API_TOKEN' | 'CERT' | null;
  csr?: string | null;
  displayName?: string | null;
  permissionGroupUuid?: string | null;
}

export interface ApplicationAnswer {
  apiKey?: string;
  cert?: string | null;
  validCSR?: boolean;
  error?: true;
  errorMsg?: string;
}

/** submitApiTokenApplication: a new key of the caller's organization (`partner`: of the partner, a partner key), acting as the caller's user. */
export async function submitApplication(deps: TokenDeps, ctx: CallerContext, input: ApplicationInput, partner = false): Promise<ApplicationAnswer> {
  const orgUuid = partner ? asPartner(ctx).orgUuid : ctx.orgUuid;
  const authType = input.authType ?? 'API_TOKEN';
  let certificate: { certPem: string; chainPem: string } | null = null;
  if (authType === 'CERT') {
    const csr = await readCsr(input.csr);
    // The platform's answer to a bad request: validCSR false, and no key (its CLI then asks for a plain one).
    if (!csr) return { error: true, errorMsg: 'csr: not a PEM certificate request with a valid signature', validCSR: false };
    certificate = await signClientCertificate(deps, csr);
  }
  return write(deps, ctx, async (w) => {
    const { apiKey, keyId } = await issueApiKey(w, deps, {
      orgUuid,
      kind: partner ? 'partner' : 'standard',
      userUuid: orgUuid === ctx.orgUuid ? ctx.userUuid : null,
      certFingerprint: certificate ? certificateFingerprint(certificate.certPem) : null,
    });
    await store.insertApplication(w.tx, {
      token_uuid: keyId,
      org_uuid: orgUuid,
      display_name: input.displayName?.trim() || null,
      auth_type: authType,
      client_type: partner ? 'PARTNER_DEVELOPER' : 'DEVELOPER',
      permission_group_uuid: input.permissionGroupUuid ?? null,
      csr: certificate ? input.csr!.trim() : null,
      cert: certificate?.chainPem ?? null,
      created_at_ms: w.nowMs,
    });
    w.audit({ entity: 'API_TOKEN_APPLICATION', entityUuid: keyId, action: 'CREATE' });
    return { apiKey, cert: certificate?.chainPem ?? null, validCSR: certificate ? true : undefined };
  });
}

function toToken(orgUuid: string, key: ApiKeyRecord, app: ApiTokenApplicationsTable | undefined) {
  return {
    tokenUuid: key.keyId,
    orgUuid,
    displayName: app?.display_name ?? `${key.kind} key …${key.hint}`,
    authType: key.certificate ? ('CERT' as const) : ('API_TOKEN' as const),
    clientType: (app?.client_type ?? (key.kind === 'partner' ? 'PARTNER_DEVELOPER' : 'DEVELOPER')) as ClientType,
    permissionGroupUuid: app?.permission_group_uuid ?? null,
    csr: app?.csr ?? null,
    clientDetails: { createdAtMs: String(key.createdAtMs), ...(key.expiresAtMs ? { expiresAtMs: String(key.expiresAtMs) } : {}) },
  };
}

/** The organization's working keys (never an internal one), with their applications, oldest first. */
async function workingTokens(deps: Pick<Deps, 'store' | 'clock'>, orgUuid: string) {
  const now = deps.clock.now();
  const [keys, apps] = await Promise.all([listApiKeys(deps, { orgUuid }), store.listApplications(deps.store.db, orgUuid)]);
  const byKey = new Map(apps.map((a) => [a.token_uuid, a]));
  return keys
    .filter((k) => k.kind !== 'internal' && keyRefusal({ revoked_at_ms: k.revokedAtMs, expires_at_ms: k.expiresAtMs }, now) === null)
    .map((k) => ({ key: k, app: byKey.get(k.keyId) }));
}

/** getApiTokens: the organization's working API tokens, narrowed to the client types of `filter` when given. */
export async function listTokens(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, filter: readonly ClientType[] | null | undefined) {
  const tokens = (await workingTokens(deps, ctx.orgUuid)).map(({ key, app }) => ({
    ...toToken(ctx.orgUuid, key, app),
    cert: app?.cert ?? null,
    hashed: true,
  }));
  return filter && filter.length > 0 ? tokens.filter((t) => filter.includes(t.clientType)) : tokens;
}

/** getApiTokenApplications: the working keys that an application made. */
export async function listApplications(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  return (await workingTokens(deps, ctx.orgUuid)).filter(({ app }) => app).map(({ key, app }) => toToken(ctx.orgUuid, key, app));
}

/** revokeApiToken: one of the organization's keys stops working at once; another organization's is unknown. */
export async function revokeToken(deps: TokenDeps, ctx: CallerContext, tokenUuid: string): Promise<void> {
  await revokeApiKey(deps, { orgUuid: ctx.orgUuid, keyId: tokenUuid }, ctx);
}
