import type { Generated } from 'kysely';

export interface OrgsTable {
  uuid: string;
  name: string;
  created_at_ms: number;
}

export interface UsersTable {
  uuid: string;
  org_uuid: string;
  name: string;
  email: string | null;
  created_at_ms: number;
  /** The user's role (src/domains/permissions); null: the organization's full administrator. */
  permission_group_uuid?: string | null;
  updated_at_ms?: number | null;
}

export type ApiKeyKind = 'standard' | 'partner' | 'internal';

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

/** Audit rows and the durable change log are written by src/store/write.ts for every domain. */
export interface AuditLogTable {
  id: Generated<number>;
  at_ms: number;
  org_uuid: string;
  user_uuid: string | null;
  api_key_id: string | null;
  partner_org_uuid: string | null;
  operation: string;
  entity: string;
  entity_uuid: string;
  action: string;
}
