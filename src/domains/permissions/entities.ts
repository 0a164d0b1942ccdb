/**
 * The entities the permissions domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { PartnerPermissionGroupRecord } from './partner-group-records.js';
import type { PermissionGroupRecord } from './service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    PERMISSION_GROUP: PermissionGroupRecord; // a permission group and its rights
    PARTNER_PERMISSION_GROUP: PartnerPermissionGroupRecord; // a partner permission group
  }
}
