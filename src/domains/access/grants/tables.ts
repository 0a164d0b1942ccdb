import type { Generated } from 'kysely';

/** An access control group: users that grants and revocations name together. */
export interface AccessGroupsTable {
  uuid: string;
  org_uuid: string;
  name: string;
  /** The name in lower case: names are unique per organization whatever their case, and prefixes match on it. */
  name_key: string;
  description: string | null;
  location_uuid: string | null;
  type: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface AccessGroupMembersTable {
  group_uuid: string;
  user_uuid: string;
  org_uuid: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export type AccessRuleKind = 'GRANT' | 'REVOCATION';

/** A location access grant or revocation; who and what it names are rows of access_rule_refs. */
export interface AccessRulesTable {
  uuid: string;
  org_uuid: string;
  kind: AccessRuleKind;
  name: string;
  location_uuid: string;
  /** When the rule holds; null means at all times. */
  schedule_uuid: string | null;
  /** 1 when the rule names no door, landing or door label: it then covers every door of its location. */
  location_wide: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** What a rule names: its subjects (users, groups) and its targets (doors, landings, door labels). */
export type AccessRefType = 'USER' | 'GROUP' | 'DOOR' | 'LANDING' | 'DOOR_LABEL';

export interface AccessRuleRefsTable {
  rule_uuid: string;
  org_uuid: string;
  /** The rule's kind, repeated so that a finder reads one index. */
  kind: AccessRuleKind;
  ref_type: AccessRefType;
  ref_id: string;
}

/**
 * A token per organization, replaced in every write that changes who may open what (groups, members, grants,
 * revocations, door labels): the badge decision's cached view of the organization is valid while it matches.
 */
export interface AccessRuleVersionsTable {
  org_uuid: string;
  version: string;
}

export interface DoorLabelsTable {
  door_uuid: string;
  org_uuid: string;
  label: string;
  created_at_ms: number;
}

/** Every state a credential has been in, one row per lifecycle change (not per badge-in). */
export interface CredentialHistoryTable {
  id: Generated<number>;
  org_uuid: string;
  credential_uuid: string;
  user_uuid: string | null;
  lookup_key: string;
  type: string;
  value: string;
  /** CREATE, UPDATE or DELETE. */
  action: string;
  recorded_at_ms: number;
  /** The credential as the REST API answered it after the change. */
  payload: string;
}

export interface AccessGrantTables {
  access_groups: AccessGroupsTable;
  access_group_members: AccessGroupMembersTable;
  access_rules: AccessRulesTable;
  access_rule_refs: AccessRuleRefsTable;
  access_rule_versions: AccessRuleVersionsTable;
  door_labels: DoorLabelsTable;
  credential_history: CredentialHistoryTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends AccessGrantTables {}
}
