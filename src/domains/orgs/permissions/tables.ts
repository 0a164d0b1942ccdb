/** A role: what its users may do (functionality) and where (location access). */
export interface PermissionGroupsTable {
  uuid: string;
  org_uuid: string;
  name: string;
  description: string | null;
  /** 0/1: every right everywhere. */
  super_admin: number;
  /** JSON array of functionality names (the reference's functionalityList). */
  functionality: string;
  /** JSON object location uuid -> READONLY | LIVEONLY | ADMIN; null: every location. */
  location_access: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface PermissionTables {
  permission_groups: PermissionGroupsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends PermissionTables {}
}
