import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { toGroupRecord, type PermissionGroupRecord } from '../permissions/group-rights.js';
import { clientGroupOf, limitingPartnerGroup } from '../permissions/partner-rights.js';
import { orgView, type OrgView } from '../settings/service.js';
import { clientOf } from './service.js';

/** What the calling partner user may do in the client, as a permission group of the client. */
async function partnerGroupInClient(deps: Pick<Deps, 'store'>, ctx: CallerContext, clientOrgUuid: string): Promise<PermissionGroupRecord> {
  const group = await limitingPartnerGroup(deps, ctx.userUuid);
  const base = {
    orgUuid: clientOrgUuid,
    description: null,
    locationAccessMap: {},
    accessibleLocations: null,
    defaultPermissionForNewLocations: 'ADMIN' as const,
    mutable: false,
  };
  if (!group) return { ...base, uuid: ctx.partnerOrgUuid ?? ctx.orgUuid, name: 'Partner', superAdmin: true, functionalityList: [] };
  const reach = await clientGroupOf(deps, group, clientOrgUuid);
  if ('denied' in reach) throw fail('NOT_FOUND', `Client ${clientOrgUuid}`);
  if ('group' in reach) return toGroupRecord(reach.group);
  return { ...base, uuid: group.uuid, name: group.name, superAdmin: false, functionalityList: reach.functionality };
}

/** getClientOrg: a client of the partner (another organization answers as unknown) and the partner's rights there. */
export async function clientOrgView(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  clientOrgUuid: string,
): Promise<{ org: OrgView; featureFlags: Record<string, string>; partnerOrgPermissionGroup: PermissionGroupRecord }> {
  await clientOf(deps, ctx, clientOrgUuid);
  return { org: await orgView(deps, clientOrgUuid), featureFlags: {}, partnerOrgPermissionGroup: await partnerGroupInClient(deps, ctx, clientOrgUuid) };
}
