import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { outboundPolicy, sendOutbound } from '../../../net/outbound.js';
import { PARTNERS, type PartnerKind } from './catalogue.js';

/*
 * The one adapter of every partner's API, parameterized per partner by PARTNER_ACCESS: where its API is and
 * which of its credentials authenticate a call. Every call goes through the outbound policy (src/net/outbound.ts).
 * The resources and actions called are the behaviours' (behaviours.ts); docs/integrations.md gives the contract.
 */

type Access = {
  /**
   * `Authorization: Bearer <field>`, or Basic from a user and a password field; `app`: the partner knows Gatehouse
   * as an application (its address in GATEHOUSE_PARTNER_API_URLS is the account), no credential of the organization.
   */
  auth: { bearer: string } | { user: string; password: string } | { app: true };
  /** A settings field holding the base URL of the customer's own instance (PlaceOS, an OpenAI-compatible server). */
  baseField?: string;
};

const bearer = (field: string, baseField?: string): Access => ({ auth: { bearer: field }, baseField });
const basic = (user: string, password: string): Access => ({ auth: { user, password } });

/** A partner the adapter reaches: one of the table, the badge system (Genea) of the badge integration, or Calendly (no settings). */
export type AdapterKind = PartnerKind | 'BADGE' | 'CALENDLY';
const OUTSIDE_TABLE: Record<Exclude<AdapterKind, PartnerKind>, string> = { BADGE: 'Genea', CALENDLY: 'Calendly' };
export const titleOf = (kind: AdapterKind) => (kind === 'BADGE' || kind === 'CALENDLY' ? OUTSIDE_TABLE[kind] : PARTNERS[kind].title);
const app: Access = { auth: { app: true } };

/** How each partner with behaviour is reached: the credential fields are its settings' (or the request's) names. */
export const PARTNER_ACCESS: Partial<Record<AdapterKind, Access>> = {
  BADGE: bearer('apiToken'),
  AMT: basic('email', 'password'),
  AVIGILON_ALTA: bearer('apiToken'),
  BOULEVARD: bearer('apiToken'),
  BRIVO: basic('username', 'password'),
  BUTTERFLY_MX: basic('email', 'password'),
  INNER_RANGE: bearer('apiToken'),
  KISI: bearer('apiSecretKey'),
  OPENPATH: basic('email', 'password'),
  OPENTECH_ALLIANCE: basic('apiKey', 'apiSecret'),
  PRODATAKEY: bearer('apiToken'),
  PLACE_OS: bearer('apiToken', 'apiUrl'),
  INFORMACAST: bearer('apiToken'),
  OPENAI: bearer('apiToken', 'baseUrl'),
  ENVOY: bearer('apiToken'),
  GOOGLE: bearer('apiToken'),
  MICROSOFT_TEAMS: app,
  TOAST: app,
  CALENDLY: app,
};

const TIMEOUT_MS = 5000;
type Credentials = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** The partner's API base: the settings' own URL field, else GATEHOUSE_PARTNER_API_URLS; null when Gatehouse does not know it. */
function baseOf(deps: Pick<Deps, 'config'>, kind: AdapterKind, credentials: Credentials): string | null {
  const access = PARTNER_ACCESS[kind];
  const own = access?.baseField ? text(credentials[access.baseField]) : null;
  const configured = kind === 'BADGE' ? deps.config.badgeApiUrl : deps.config.partnerApiUrls[kind];
  return (own ?? configured)?.replace(/\/+$/, '') ?? null;
}

/** The Authorization header of a call ('' for an application partner), or null when the credentials it needs are missing. */
function authorization(kind: AdapterKind, credentials: Credentials): string | null {
  const auth = PARTNER_ACCESS[kind]?.auth;
  if (!auth) return null;
  if ('app' in auth) return '';
  if ('bearer' in auth) {
    const token = text(credentials[auth.bearer]);
    return token ? `Bearer ${token}` : null;
  }
  const [user, password] = [text(credentials[auth.user]), text(credentials[auth.password])];
  return user && password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : null;
}

export interface PartnerRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  json?: unknown;
}

export interface PartnerAnswer {
  status: number;
  json: unknown;
}

/**
 * Calls the partner's API. Refused with a message when Gatehouse does not know where it is or the credentials
 * are missing, and when the partner cannot be reached or fails (its address is the caller's to fix: an error
 * envelope, never a 5xx). 401 and 403 come back for the caller to answer
 * authError.
 */
export async function callPartner(deps: Pick<Deps, 'config'>, kind: AdapterKind, credentials: Credentials, request: PartnerRequest): Promise<PartnerAnswer> {
  const title = titleOf(kind);
  const base = baseOf(deps, kind, credentials);
  if (!base) throw fail('NOT_ALLOWED', `${title}: Gatehouse does not know where its API is (GATEHOUSE_PARTNER_API_URLS)`);
  const auth = authorization(kind, credentials);
  if (auth === null) throw fail('INVALID_VALUE', `${title}: the credentials are missing; send them or save them in the integration`);
  let response;
  try {
    response = await sendOutbound(
      {
        method: request.method,
        url: `${base}${request.path}`,
        headers: { ...(auth ? { authorization: auth } : {}), accept: 'application/json' },
        json: request.json,
        timeoutMs: TIMEOUT_MS,
      },
      outboundPolicy(deps.config),
    );
  } catch {
    // The partner's address comes from the request or the settings, so it is the caller's to fix: a refusal, not a 5xx.
    throw fail('INVALID_VALUE', `${title}'s API could not be reached`);
  }
  let json: unknown = null;
  try {
    json = response.body ? JSON.parse(response.body) : null;
  } catch {
    json = null;
  }
  if (response.status !== 401 && response.status !== 403 && (response.status < 200 || response.status >= 300))
    throw fail('INVALID_VALUE', `${title}'s API answered HTTP ${response.status}`);
  return { status: response.status, json };
}

export const refusedCredentials = (answer: PartnerAnswer) => answer.status === 401 || answer.status === 403;

/**
 * Whether the partner accepts the credentials of settings being enabled: `GET {base}/me`. Unchecked when
 * Gatehouse does not know where its API is or it has no adapter.
 */
export async function checkCredentials(
  deps: Pick<Deps, 'config'>,
  kind: PartnerKind,
  credentials: Credentials,
): Promise<'accepted' | 'refused' | 'unreachable' | 'unchecked'> {
  const access = PARTNER_ACCESS[kind];
  if (!access || 'app' in access.auth || !baseOf(deps, kind, credentials)) return 'unchecked';
  if (!authorization(kind, credentials)) return 'refused';
  try {
    return refusedCredentials(await callPartner(deps, kind, credentials, { method: 'GET', path: '/me' })) ? 'refused' : 'accepted';
  } catch {
    return 'unreachable';
  }
}
