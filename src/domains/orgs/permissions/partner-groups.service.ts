import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { announceRightsChange } from '../users/service.js';
import { asPartner } from '../partners/grants.js';
import { assertPartnerAdminRemains, countUsersInPartnerGroup, partnerGroupMembership, partnerGroupOfUser } from '../partners/partner-membership.js';
import type { Functionality, PartnerFunctionality } from '../../../edge/rights.js';
import { partnerGroups, type ClientPermission, type PartnerPermissionGroupRecord } from './partner-group-records.js';

type GroupDeps = Pick<Deps, 'store' | 'bus' | 'clock'> & Partial<Pick<Deps, 'rightsCache'>>;

/** The group input of create and update (the reference's partnerPermissionGroup). */
export interface PartnerGroupInput {
  uuid?: string | null;
  name?: string | null;
  description?: string | null;
  superAdmin?: boolean | null;
  functionalityList?: PartnerFunctionality[] | null;
  clientFunctionalityList?: Functionality[] | null;
  clientPermissionMap?: Record<string, ClientPermission> | null;
  clientAssignablePermissionGroupsMap?: Record<string, string[]> | null;
  assignablePermissionGroups?: string[] | null;
}

/** The fields given, as a record patch (null: not given). */
function patchOf(input: PartnerGroupInput): Partial<PartnerPermissionGroupRecord> {
  const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
  return {
    name: given(input.name),
    description: input.description === undefined ? undefined : input.description,
    superAdmin: given(input.superAdmin),
    functionalityList: given(input.functionalityList),
    clientFunctionalityList: given(input.clientFunctionalityList),
    clientPermissionMap: given(input.clientPermissionMap),
    clientAssignablePermissionGroupsMap: given(input.clientAssignablePermissionGroupsMap),
    assignablePermissionGroups: given(input.assignablePermissionGroups),
  };
}

const partnerHome = asPartner;

export async function listPartnerGroups(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const home = partnerHome(ctx).orgUuid;
  return { groups: await partnerGroups.list(deps, home), membership: await partnerGroupMembership(deps, home) };
}

export async function createPartnerGroup(deps: GroupDeps, ctx: CallerContext, input: PartnerGroupInput): Promise<PartnerPermissionGroupRecord> {
  const home = partnerHome(ctx);
  return partnerGroups.create(deps, home, {
    orgUuid: home.orgUuid,
    name: input.name ?? '',
    description: input.description ?? null,
    superAdmin: input.superAdmin ?? false,
    functionalityList: input.functionalityList ?? [],
    clientFunctionalityList: input.clientFunctionalityList ?? [],
    clientPermissionMap: input.clientPermissionMap ?? {},
    clientAssignablePermissionGroupsMap: input.clientAssignablePermissionGroupsMap ?? {},
    assignablePermissionGroups: input.assignablePermissionGroups ?? [],
    mutable: true,
  });
}

/** Changes the given fields of a partner group; its users' rights change at once. */
export async function updatePartnerGroup(deps: GroupDeps, ctx: CallerContext, input: PartnerGroupInput & { uuid: string }): Promise<void> {
  const home = partnerHome(ctx);
  await write(deps, home, async (w) => {
    await partnerGroups.put(w, input.uuid, patchOf(input));
    await assertPartnerAdminRemains(w);
  });
  await announceRightsChange(deps, home.orgUuid);
}

/** Deletes a partner group: refused while users are in it. */
export async function deletePartnerGroup(deps: GroupDeps, ctx: CallerContext, input: { groupUuid: string }): Promise<void> {
  const home = partnerHome(ctx);
  await write(deps, home, async (w) => {
    const group = await partnerGroups.get(w, home.orgUuid, input.groupUuid);
    const members = await countUsersInPartnerGroup(w, home.orgUuid, group.uuid);
    if (members > 0) throw fail('NOT_ALLOWED', `Partner permission group ${group.uuid} still has ${members} user(s): move them to another group first`);
    await partnerGroups.delete(w, group.uuid);
  });
  await announceRightsChange(deps, home.orgUuid);
}

/** The permissions of the partner key's user (getPermissionsForCurrentPartner): none of a group, every right. */
export async function currentPartnerPermissions(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const user = ctx.userUuid && ctx.keyKind === 'partner' ? await partnerGroupOfUser(deps, ctx.userUuid) : null;
  const group = user?.groupUuid ? await partnerGroups.find(deps, user.orgUuid, user.groupUuid) : null;
  if (!group)
    return {
      permissionGroupName: null,
      superAdmin: true,
      functionalityList: [],
      clientFunctionalityList: [],
      clientPermissionMap: {},
      assignablePermissionGroups: [],
    };
  return {
    permissionGroupName: group.name,
    superAdmin: group.superAdmin,
    functionalityList: group.functionalityList,
    clientFunctionalityList: group.clientFunctionalityList,
    clientPermissionMap: group.clientPermissionMap,
    assignablePermissionGroups: group.assignablePermissionGroups,
  };
}
