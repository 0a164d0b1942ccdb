import type { ApiKeyKind } from '../../context.js';

export interface OrgsTable {
  uuid: string;
  name: string;
  created_at_ms: number;
  /** The organization's team name (its sign-in name), lowercase, unique across organizations; null: none. */
  team_name?: string | null;
  /** The SCIM provisioning token, sealed (deps.secrets): answered once, when it is set up. */
  scim_token_sealed?: string | null;
}

export interface UsersTable {
  uuid: string;
  org_uuid: string;
  name: string;
  email: string | null;
  /** The e-mail address as it was given (trimmed): `email` is its lowercase form, which lookups compare. */
  email_case_sensitive?: string | null;
  created_at_ms: number;
  /** The user's role (src/domains/orgs/permissions); null: the organization's full administrator. */
  permission_group_uuid?: string | null;
  updated_at_ms?: number | null;
  /** A partner organization's user: their partner permission group (src/domains/orgs/permissions); null: full partner rights. */
  partner_group_uuid?: string | null;
}

export interface ApiKeysTable {
  id: string;
  org_uuid: string;
  user_uuid: string | null;
  kind: ApiKeyKind;
  /** SHA-256 of the whole key, hex: the only form in which a key is stored. */
  digest: string;
  /** The last four characters, to tell keys apart in listings. */
  hint: string;
  region: string;
  /** SHA-256 fingerprint of the client certificate that the certificate schemes require, hex, lowercase. */
  cert_fingerprint: string | null;
  created_at_ms: number;
  revoked_at_ms: number | null;
  /** When the key stops working by itself; null: it works until revoked. */
  expires_at_ms: number | null;
}

export interface PartnerGrantsTable {
  partner_org_uuid: string;
  client_org_uuid: string;
  created_at_ms: number;
}

export interface OrgTables {
  orgs: OrgsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  partner_grants: PartnerGrantsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends OrgTables {}
}
