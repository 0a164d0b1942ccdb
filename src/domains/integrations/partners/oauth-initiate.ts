import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { PARTNERS, type PartnerKind } from './catalogue.js';

/*
 * The first step of linking a partner account by OAuth (Envoy, Google Drive, Dropbox, Office 365): the partner's
 * authorize URL, at its API base (GATEHOUSE_PARTNER_API_URLS) with Gatehouse's client id there
 * (GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS). The state is sealed, so the answer to come back can be checked without a
 * record: whose organization and user asked, for which partner, and when.
 */

export const OAUTH_PARTNERS = ['ENVOY', 'GOOGLE', 'DROPBOX', 'OFFICE365'] as const satisfies readonly PartnerKind[];
export type OAuthPartner = (typeof OAUTH_PARTNERS)[number];

export const OAUTH_STATE_IDENTITY = 'partner-oauth-state';

export interface OAuthInitiate {
  param?: string | null;
  requestUrl?: string | null;
  rhombusOrgUserUuid?: string | null;
}

export function partnerAuthorizeUrl(
  deps: Pick<Deps, 'config' | 'secrets' | 'clock'>,
  ctx: CallerContext,
  kind: OAuthPartner,
  input: OAuthInitiate,
  serverBase: string,
) {
  const title = PARTNERS[kind].title;
  const base = deps.config.partnerApiUrls[kind];
  const clientId = deps.config.partnerOAuthClientIds[kind];
  if (!base || !clientId)
    throw fail('NOT_ALLOWED', `${title}: Gatehouse has no OAuth client there (GATEHOUSE_PARTNER_API_URLS, GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS)`);
  let redirect: URL;
  try {
    redirect = new URL(input.requestUrl || `${serverBase}/`);
  } catch {
    throw fail('INVALID_VALUE', 'requestUrl: not an absolute URL');
  }
  if (!/^https?:$/.test(redirect.protocol)) throw fail('INVALID_VALUE', 'requestUrl: not an http(s) URL');
  const state = deps.secrets.seal(
    JSON.stringify({ orgUuid: ctx.orgUuid, userUuid: input.rhombusOrgUserUuid ?? ctx.userUuid, kind, param: input.param ?? null, atMs: deps.clock.now() }),
    OAUTH_STATE_IDENTITY,
  );
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect.toString(), state }).toString();
  return { redirectUrl: url.toString() };
}
