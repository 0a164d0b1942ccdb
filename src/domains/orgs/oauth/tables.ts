/** An organization's OAuth application: its client secret sealed (deps.secrets), shown once at creation. */
export interface OAuthApplicationsTable {
  client_id: string;
  org_uuid: string;
  name: string;
  contact_email: string | null;
  redirect_uri: string;
  client_secret_sealed: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** An authorization code, by its SHA-256 digest: single use, short-lived, bound to its PKCE challenge. */
export interface OAuthCodesTable {
  digest: string;
  client_id: string;
  /** The API key the consent was given with: the token acts as it, and stops when it is revoked. */
  api_key_id: string;
  redirect_uri: string;
  code_challenge: string;
  /** The granted scopes, space-separated. */
  scope: string;
  expires_at_ms: number;
}

/** An access token and its refresh token, by their SHA-256 digests; a refresh replaces the row. */
export interface OAuthTokensTable {
  id: string;
  client_id: string;
  api_key_id: string;
  access_digest: string;
  refresh_digest: string;
  scope: string;
  access_expires_at_ms: number;
  refresh_expires_at_ms: number;
  revoked_at_ms: number | null;
}

declare module '../../../store/schema.js' {
  interface DB {
    oauth_applications: OAuthApplicationsTable;
    oauth_codes: OAuthCodesTable;
    oauth_tokens: OAuthTokensTable;
  }
}
