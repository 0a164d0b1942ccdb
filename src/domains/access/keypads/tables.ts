/**
 * A token a keypad shows while it waits to be claimed (claimKeypadActivationToken). Only the token's SHA-256
 * digest is kept; the organization and the keypad are set when it is claimed.
 */
export interface KeypadActivationTokensTable {
  token_digest: string;
  platform: string | null;
  ip_address: string | null;
  created_at_ms: number;
  expires_at_ms: number;
  org_uuid: string | null;
  keypad_uuid: string | null;
  claimed_at_ms: number | null;
}

export interface KeypadTables {
  keypad_activation_tokens: KeypadActivationTokensTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends KeypadTables {}
}
