import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import type { WriteScope } from '../../../bus/write.js';
import { isClientOf } from '../partners/grants.js';
import type { Functionality, PartnerFunctionality } from '../../../edge/rights.js';
import * as store from './store.js';

/*
 * The partner permission groups as records (src/records/org-records.ts), and the lookups that the partner users
 * service needs. Kept apart from partner-groups.service.ts, which calls that service, so that the two modules
 * do not import each other.
 */

/** How a partner group reaches one client: with its clientFunctionalityList, or with a group of the client. */
export type ClientPermission = 'DEFAULT' | 'CUSTOM';

/** A partner permission group (the reference's partner permission group). */
export interface PartnerPermissionGroupRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  description: string | null;
  superAdmin: boolean;
  /** What its users may do as the partner. */
  functionalityList: PartnerFunctionality[];
  /** What its users may do in a client organization reached by DEFAULT. */
  clientFunctionalityList: Functionality[];
  /** Client organization uuid to how the group reaches it; empty: every client, by DEFAULT. */
  clientPermissionMap: Record<string, ClientPermission>;
  /** For a CUSTOM client: the client's own permission group(s) whose rights apply (the first). */
  clientAssignablePermissionGroupsMap: Record<string, string[]>;
  /** The partner groups that its users may give to other partner users. */
  assignablePermissionGroups: string[];
  mutable: boolean;
}

/** Checks a group about to be stored: a unique name, clients of the partner, and groups that exist. */
async function checkGroup(w: WriteScope, group: PartnerPermissionGroupRecord): Promise<PartnerPermissionGroupRecord> {
  const name = group.name.trim();
  if (!name) throw fail('INVALID_VALUE', 'name: must not be empty');
  const holders = await partnerGroups.list(w, w.actor.orgUuid, { name });
  if (holders.some((h) => h.uuid !== group.uuid)) throw fail('CONFLICT', `The organization already has a partner permission group named "${name}"`);
  for (const [client, how] of Object.entries(group.clientPermissionMap)) {
    if (!(await isClientOf(w, w.actor.orgUuid, client))) throw fail('NOT_FOUND', `Client ${client}`);
    const custom = group.clientAssignablePermissionGroupsMap[client] ?? [];
    if (how === 'CUSTOM' && custom.length === 0)
      throw fail('INVALID_VALUE', `clientAssignablePermissionGroupsMap.${client}: a CUSTOM client needs a permission group of that client`);
  }
  for (const [client, uuids] of Object.entries(group.clientAssignablePermissionGroupsMap)) {
    if (!(await isClientOf(w, w.actor.orgUuid, client))) throw fail('NOT_FOUND', `Client ${client}`);
    for (const uuid of uuids) if (!(await store.findGroup(dbOf(w), client, uuid))) throw fail('NOT_FOUND', `Permission group ${uuid} of client ${client}`);
  }
  for (const uuid of group.assignablePermissionGroups) {
    if (uuid !== group.uuid && !(await partnerGroups.find(w, w.actor.orgUuid, uuid))) throw fail('NOT_FOUND', `Partner permission group ${uuid}`);
  }
  return {
    ...group,
    name,
    functionalityList: [...new Set(group.functionalityList)],
    clientFunctionalityList: [...new Set(group.clientFunctionalityList)],
  };
}

export const partnerGroups = orgRecords({
  entity: 'PARTNER_PERMISSION_GROUP',
  label: 'Partner permission group',
  nameOf: (g) => g.name,
  check: checkGroup,
});

/** A partner group of the organization, or null (also for another organization's). */
export async function findPartnerGroup(source: ReadSource, orgUuid: string, uuid: string): Promise<PartnerPermissionGroupRecord | null> {
  return partnerGroups.find(source, orgUuid, uuid);
}

/** The organization's partner groups with every right. */
export async function superPartnerGroupUuids(source: ReadSource, orgUuid: string): Promise<string[]> {
  return (await partnerGroups.list(source, orgUuid)).filter((g) => g.superAdmin).map((g) => g.uuid);
}
