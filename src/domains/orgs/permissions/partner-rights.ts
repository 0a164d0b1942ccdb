import type { CallerContext } from '../../../context.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { partnerGroupOfUser } from '../partners/partner-membership.js';
import { findPartnerGroup, type PartnerPermissionGroupRecord } from './partner-group-records.js';
import { FULL_RIGHTS, type Rights } from '../../../edge/rights.js';
import { rightsOfGroup } from './group-rights.js';
import * as store from './store.js';
import type { PermissionGroupsTable } from './tables.js';

/** A partner group that does not reach a client: every call there is refused. */
const DENIED: Rights = { superAdmin: false, functionality: new Set(), locations: null, denied: true };

/** Where a partner call acts: as the partner (the partner operations), or in an organization it reaches. */
export type PartnerScope = 'partner' | 'org';

/**
 * How a partner group reaches a client organization: not at all when its clientPermissionMap lists other
 * clients only; through the client's own permission group when CUSTOM; else with its clientFunctionalityList
 * in every location of the client.
 */
export async function clientGroupOf(
  source: ReadSource,
  group: PartnerPermissionGroupRecord,
  clientOrgUuid: string,
): Promise<{ denied: true } | { group: PermissionGroupsTable } | { functionality: string[] }> {
  const how = group.clientPermissionMap[clientOrgUuid];
  if (Object.keys(group.clientPermissionMap).length > 0 && !how) return { denied: true };
  if (how === 'CUSTOM') {
    const uuid = group.clientAssignablePermissionGroupsMap[clientOrgUuid]?.[0];
    const custom = uuid ? await store.findGroup(dbOf(source), clientOrgUuid, uuid) : undefined;
    return custom ? { group: custom } : { denied: true };
  }
  return { functionality: group.clientFunctionalityList };
}

/** The partner group of the partner key's user: null when they have none (every right), or it gives every right. */
export async function limitingPartnerGroup(source: ReadSource, userUuid: string | null): Promise<PartnerPermissionGroupRecord | null> {
  const user = userUuid ? await partnerGroupOfUser(source, userUuid) : null;
  const group = user?.groupUuid ? await findPartnerGroup(source, user.orgUuid, user.groupUuid) : null;
  return group && !group.superAdmin ? group : null;
}

/**
 * The rights of a partner key's call, from its user's partner group: as the partner, the group's partner
 * functionality; in a client organization, what the group gives there (clientGroupOf). In the partner's own
 * organization the user acts with their own permission group, as a standard key would (`ownRights`).
 */
export async function partnerRights(
  source: ReadSource,
  ctx: CallerContext,
  scope: PartnerScope,
  ownRights: (userUuid: string) => Promise<Rights>,
): Promise<Rights> {
  const group = await limitingPartnerGroup(source, ctx.userUuid);
  if (!group) return FULL_RIGHTS;
  if (scope === 'partner') return { superAdmin: false, functionality: new Set(group.functionalityList), locations: null };
  if (ctx.orgUuid === group.orgUuid) return ownRights(ctx.userUuid!);
  const reach = await clientGroupOf(source, group, ctx.orgUuid);
  if ('denied' in reach) return DENIED;
  if ('group' in reach) return rightsOfGroup(reach.group);
  return { superAdmin: false, functionality: new Set(reach.functionality), locations: null };
}
