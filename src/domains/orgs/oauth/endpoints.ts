import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { isGatehouseError } from '../../../errors.js';
import { consentPage, errorPage } from './consent-page.js';
import {
  authorizingApplication,
  checkAuthorizeRequest,
  consentKey,
  exchangeToken,
  issueCode,
  OAuthError,
  type AuthorizeRequest,
  type IssuedTokens,
  type TokenRequest,
} from './flow.service.js';
import type { OAuthApplicationsTable } from './tables.js';

/*
 * The HTTP side of the OAuth flow: reading the two spellings of each parameter (the catalogue's and the
 * platform CLI's camelCase, RFC 6749's snake_case), and answering as each kind of client expects: the consent
 * page and redirects for the browser, JSON for the token endpoint (the CLI's envelope or RFC 6749's fields).
 */

type Params = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const pick = (params: Params, ...names: string[]): string | undefined => {
  for (const name of names) if (text(params[name]) !== undefined) return text(params[name]);
  return undefined;
};

function authorizeRequestOf(params: Params): AuthorizeRequest {
  return {
    clientId: pick(params, 'client_id', 'clientId') ?? '',
    redirectUri: pick(params, 'redirect_uri', 'redirectUri') ?? '',
    responseType: pick(params, 'response_type', 'responseType') ?? 'code',
    state: pick(params, 'state') ?? null,
    codeChallenge: pick(params, 'code_challenge', 'codeChallenge') ?? '',
    codeChallengeMethod: pick(params, 'code_challenge_method', 'codeChallengeMethod') ?? 'S256',
    scope: pick(params, 'scope') ?? null,
  };
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}

/** A redirect to the application's registered URI with these parameters (and the request's state). */
function redirectTo(reply: FastifyReply, app: OAuthApplicationsTable, request: AuthorizeRequest, params: Record<string, string>) {
  const url = new URL(app.redirect_uri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== null) url.searchParams.set('state', request.state);
  return reply.status(302).header('cache-control', 'no-store').header('location', url.toString()).send();
}

function tokenRequestOf(request: FastifyRequest): TokenRequest {
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Params;
  // client_secret_basic (RFC 6749 §2.3.1): each half form-encoded, then base64.
  const basic = /^basic (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  const [basicId, basicSecret] = basic
    ? Buffer.from(basic, 'base64')
        .toString('utf8')
        .split(':', 2)
        .map((p) => decodeURIComponent(p.replace(/\+/g, ' ')))
    : [];
  const grant = pick(body, 'grant_type', 'grantType') ?? '';
  return {
    grantType: grant.toLowerCase(),
    clientId: basicId ?? pick(body, 'client_id', 'clientId'),
    clientSecret: basicSecret ?? pick(body, 'client_secret', 'clientSecret'),
    code: pick(body, 'code', 'authorizationCode'),
    redirectUri: pick(body, 'redirect_uri', 'redirectUri'),
    codeVerifier: pick(body, 'code_verifier', 'codeVerifier'),
    codeChallengeType: pick(body, 'codeChallengeType'),
    refreshToken: pick(body, 'refresh_token', 'refreshToken'),
    scope: pick(body, 'scope'),
  };
}

/** The platform CLI posts JSON with camelCase names (grantType, ...) and reads the envelope's camelCase answer. */
const isPlatformStyle = (request: FastifyRequest) => {
  const body = request.body as Params | null;
  return Boolean(body && typeof body === 'object' && ('grantType' in body || 'clientId' in body));
};

function tokenAnswer(platform: boolean, t: IssuedTokens) {
  if (platform)
    return {
      error: false,
      accessToken: t.accessToken,
      refreshToken: t.refreshToken,
      accessTokenExpirationSec: t.expiresInSec,
      scope: t.scope,
      isPartner: t.partner,
    };
  return { access_token: t.accessToken, token_type: 'Bearer', expires_in: t.expiresInSec, refresh_token: t.refreshToken, scope: t.scope };
}

export function authorizeEndpoints(deps: Deps) {
  /** The request, its application and its granted scope; or the error page, or a redirect carrying the error. */
  async function prepare(params: Params, reply: FastifyReply) {
    const request = authorizeRequestOf(params);
    let app: OAuthApplicationsTable;
    try {
      app = await authorizingApplication(deps, request);
    } catch (e) {
      if (e instanceof OAuthError) return { answered: html(reply, 400, errorPage(e.error, e.description)) };
      throw e;
    }
    try {
      return { request, app, scope: checkAuthorizeRequest(request) };
    } catch (e) {
      if (e instanceof OAuthError) return { answered: redirectTo(reply, app, request, { error: e.error, error_description: e.description }) };
      throw e;
    }
  }

  async function grant(reply: FastifyReply, apiKey: string, prepared: { request: AuthorizeRequest; app: OAuthApplicationsTable; scope: string }) {
    const key = await consentKey(deps, apiKey);
    if (!key) return null;
    const code = await issueCode(deps, prepared.app, prepared.request, key, prepared.scope);
    return redirectTo(reply, prepared.app, prepared.request, { code, isPartner: String(key.kind === 'partner') });
  }

  return {
    /** GET /api/oauth/authorize: the consent page; with a working x-auth-apikey and consentGiven=true, the code at once. */
    async authorizePage(request: FastifyRequest, reply: FastifyReply) {
      const params = request.query as Params;
      const prepared = await prepare(params, reply);
      if ('answered' in prepared) return prepared.answered;
      const headerKey = text(request.headers['x-auth-apikey']);
      if (headerKey && (params.consentGiven === true || params.consentGiven === 'true')) {
        const answered = await grant(reply, headerKey, prepared);
        if (answered) return answered;
      }
      const app = { name: prepared.app.name, contactEmail: prepared.app.contact_email };
      return html(reply, 200, consentPage(app, { ...prepared.request, redirectUri: prepared.app.redirect_uri }, prepared.scope));
    },

    /** POST /api/oauth/authorize: the consent form; allow with a working key gives the code, deny tells the application so. */
    async consent(request: FastifyRequest, reply: FastifyReply) {
      const params = (request.body && typeof request.body === 'object' ? request.body : {}) as Params;
      const prepared = await prepare(params, reply);
      if ('answered' in prepared) return prepared.answered;
      if (params.decision !== 'allow')
        return redirectTo(reply, prepared.app, prepared.request, { error: 'access_denied', error_description: 'The user denied the request' });
      const answered = await grant(reply, text(params.apiKey)?.trim() ?? '', prepared);
      if (answered) return answered;
      const app = { name: prepared.app.name, contactEmail: prepared.app.contact_email };
      return html(
        reply,
        401,
        consentPage(app, { ...prepared.request, redirectUri: prepared.app.redirect_uri }, prepared.scope, 'That API key is not valid here.'),
      );
    },

    /** POST /oauth/token: the code (with its PKCE verifier) or a refresh token, for a new access and refresh token. */
    async token(request: FastifyRequest, reply: FastifyReply) {
      const platform = isPlatformStyle(request);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      try {
        return reply.send(tokenAnswer(platform, await exchangeToken(deps, tokenRequestOf(request))));
      } catch (e) {
        const failure = e instanceof OAuthError ? e : isGatehouseError(e) ? new OAuthError('invalid_request', e.message) : null;
        if (!failure) throw e;
        // The CLI reads the envelope (error, errorMsg); RFC 6749 §5.2 clients read error and error_description.
        if (platform) return reply.status(400).send({ error: true, errorMsg: `${failure.error}: ${failure.description}` });
        return reply.status(failure.error === 'invalid_client' ? 401 : 400).send({ error: failure.error, error_description: failure.description });
      }
    },

    /** GET /login?type=oauth&client_id&redirect&state&challenge: the platform CLI's sign-in URL, sent to the consent page. */
    async cliLogin(request: FastifyRequest, reply: FastifyReply) {
      const q = request.query as Params;
      const target = new URLSearchParams({
        response_type: 'code',
        client_id: text(q.client_id) ?? '',
        redirect_uri: text(q.redirect) ?? '',
        state: text(q.state) ?? '',
        code_challenge: text(q.challenge) ?? '',
        code_challenge_method: 'S256',
      });
      return reply.status(302).header('location', `/api/oauth/authorize?${target.toString()}`).send();
    },
  };
}
