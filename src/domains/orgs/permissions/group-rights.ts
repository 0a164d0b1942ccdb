import { fromJson } from '../../../store/columns.js';
import { FULL_RIGHTS, type AccessLevel, type Rights } from '../../../edge/rights.js';
import type { PermissionGroupsTable } from './tables.js';

/* A permission group's answer and rights: pure functions of its row, which the partner rights reuse. */

/** A permission group as the permission operations answer it (the reference's user permission group). */
export interface PermissionGroupRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  description: string | null;
  superAdmin: boolean;
  functionalityList: string[];
  /** Location uuid to level; empty with `accessibleLocations` null: every location. */
  locationAccessMap: Record<string, AccessLevel>;
  accessibleLocations: string[] | null;
  /** Left out for a group limited to its listed locations: the catalogue's levels have no "none". */
  defaultPermissionForNewLocations?: AccessLevel;
  mutable: boolean;
}

export function toGroupRecord(row: PermissionGroupsTable): PermissionGroupRecord {
  const locations = fromJson<Record<string, AccessLevel>>(row.location_access);
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    description: row.description,
    superAdmin: row.super_admin === 1,
    functionalityList: fromJson<string[]>(row.functionality) ?? [],
    locationAccessMap: locations ?? {},
    accessibleLocations: locations ? Object.keys(locations) : null,
    ...(locations ? {} : { defaultPermissionForNewLocations: 'ADMIN' as const }),
    mutable: true,
  };
}

export function rightsOfGroup(row: PermissionGroupsTable): Rights {
  if (row.super_admin === 1) return FULL_RIGHTS;
  const locations = fromJson<Record<string, AccessLevel>>(row.location_access);
  return {
    superAdmin: false,
    functionality: new Set(fromJson<string[]>(row.functionality) ?? []),
    locations: locations ? new Map(Object.entries(locations)) : null,
  };
}
