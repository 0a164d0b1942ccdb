import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { forgetRecord, requireRecords } from '../../../records/references.js';
import { announceRightsChange, assertAdminRemains, countUsersInGroup, groupMembership, groupOfUser } from '../users/service.js';
import { rightsOfGroup, toGroupRecord, type PermissionGroupRecord } from './group-rights.js';
import { FULL_RIGHTS, type AccessLevel, type Functionality, type Rights } from '../../../edge/rights.js';
import { partnerRights, type PartnerScope } from './partner-rights.js';
import * as store from './store.js';
import type { PermissionGroupsTable } from './tables.js';
import type { RecordFinder } from '../../../records/references.js';
import { orgUuidsIn } from '../../../store/org-uuids.js';

type GroupDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'recordFinders' | 'recordCleaners'> & Partial<Pick<Deps, 'rightsCache'>>;

export type { PermissionGroupRecord };

/** The group input of create and update (the reference's userPermissionGroup). */
export interface GroupInput {
  uuid?: string | null;
  name?: string | null;
  description?: string | null;
  superAdmin?: boolean | null;
  functionalityList?: Functionality[] | null;
  /** Location uuid to level; wins over accessibleLocations (each at ADMIN). Neither: every location. */
  locationAccessMap?: Record<string, AccessLevel> | null;
  accessibleLocations?: string[] | null;
}

/** The record finder of kind permissionGroup (src/records/references.ts). */
export const findPermissionGroupUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'permission_groups', orgUuid, uuids);

async function groupOf(source: ReadSource, orgUuid: string, uuid: string): Promise<PermissionGroupsTable> {
  const row = await store.findGroup(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `Permission group ${uuid}`);
  return row;
}

async function locationAccess(deps: Pick<Deps, 'recordFinders'>, w: WriteScope, input: GroupInput): Promise<string | null> {
  const map = input.locationAccessMap ?? (input.accessibleLocations ? Object.fromEntries(input.accessibleLocations.map((l) => [l, 'ADMIN' as const])) : null);
  if (!map) return null;
  await requireRecords(deps, w, w.actor.orgUuid, 'location', Object.keys(map));
  return toJson(map);
}

async function checkName(w: WriteScope, name: string, uuid?: string): Promise<string> {
  const trimmed = name.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'name: must not be empty');
  const holder = await store.findGroupByName(w.tx, w.actor.orgUuid, trimmed);
  if (holder && holder.uuid !== uuid) throw fail('CONFLICT', `The organization already has a permission group named "${trimmed}"`);
  return trimmed;
}

export async function listGroups(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
): Promise<{ groups: PermissionGroupRecord[]; membership: Record<string, string[]> }> {
  const groups = (await store.listGroups(deps.store.db, ctx.orgUuid)).map(toGroupRecord);
  return { groups, membership: Object.fromEntries(await groupMembership(deps, ctx.orgUuid)) };
}

export async function createGroup(deps: GroupDeps, ctx: CallerContext, input: GroupInput): Promise<PermissionGroupRecord> {
  return write(deps, ctx, (w) => addGroup(deps, w, input));
}

/** Whether the organization has a group of this name. */
/** The organization's permission groups, name to uuid (a site file seeded again finds its groups by name). */
export async function groupUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName(await store.listGroups(dbOf(source), orgUuid));
}

/** Creates a group of the writer's organization, inside its write (the seeder's path too). */
export async function addGroup(deps: Pick<Deps, 'recordFinders'>, w: WriteScope, input: GroupInput): Promise<PermissionGroupRecord> {
  const row: PermissionGroupsTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name: await checkName(w, input.name ?? ''),
    description: input.description ?? null,
    super_admin: input.superAdmin ? 1 : 0,
    functionality: toJson([...new Set(input.functionalityList ?? [])])!,
    location_access: await locationAccess(deps, w, input),
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.insertGroup(w.tx, row);
  const record = toGroupRecord(row);
  w.change({ entity: 'PERMISSION_GROUP', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

/** Changes the given fields of a group; its users' rights change at once. */
export async function updateGroup(deps: GroupDeps, ctx: CallerContext, input: GroupInput & { uuid: string }): Promise<PermissionGroupRecord> {
  const record = await write(deps, ctx, async (w) => {
    const row = await groupOf(w, ctx.orgUuid, input.uuid);
    const patch: store.GroupPatch = { updated_at_ms: w.nowMs };
    if (input.name != null) patch.name = await checkName(w, input.name, row.uuid);
    if (input.description !== undefined) patch.description = input.description;
    if (input.superAdmin != null) patch.super_admin = input.superAdmin ? 1 : 0;
    if (input.functionalityList != null) patch.functionality = toJson([...new Set(input.functionalityList)])!;
    if (input.locationAccessMap !== undefined || input.accessibleLocations !== undefined) patch.location_access = await locationAccess(deps, w, input);
    await store.updateGroup(w.tx, ctx.orgUuid, row.uuid, patch);
    await assertAdminRemains(w);
    const updated = toGroupRecord(await groupOf(w, ctx.orgUuid, row.uuid));
    w.change({ entity: 'PERMISSION_GROUP', entityUuid: row.uuid, type: 'UPDATE', update: updated });
    return updated;
  });
  await announceRightsChange(deps, ctx.orgUuid);
  return record;
}

/** Deletes a group: refused while users are in it; the records that name it as a role let it go (clips' allowed roles). */
export async function deleteGroup(deps: GroupDeps, ctx: CallerContext, input: { groupUuid: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await groupOf(w, ctx.orgUuid, input.groupUuid);
    const members = await countUsersInGroup(w, ctx.orgUuid, row.uuid);
    if (members > 0) throw fail('NOT_ALLOWED', `Permission group ${row.uuid} still has ${members} user(s): move them to another group first`);
    await forgetRecord(deps, w, 'permissionGroup', row.uuid);
    await store.deleteGroup(w.tx, ctx.orgUuid, row.uuid);
    w.change({ entity: 'PERMISSION_GROUP', entityUuid: row.uuid, type: 'DELETE', update: toGroupRecord(row) });
  });
  await announceRightsChange(deps, ctx.orgUuid);
}

/** A user's rights, from the store: a user without a group (or no user, a system key) has full rights. */
export async function rightsOfUser(source: ReadSource, userUuid: string): Promise<Rights> {
  const user = await groupOfUser(source, userUuid);
  if (!user?.groupUuid) return FULL_RIGHTS;
  const group = await store.findGroup(dbOf(source), user.orgUuid, user.groupUuid);
  return group ? rightsOfGroup(group) : FULL_RIGHTS;
}

/** The cache key of a caller's rights: a standard key's user; a partner key's user as the partner or in one organization. */
function rightsKey(ctx: CallerContext, scope: PartnerScope): string {
  return ctx.keyKind === 'partner' ? `${ctx.userUuid}|${scope === 'partner' ? 'partner' : ctx.orgUuid}` : ctx.userUuid!;
}

/**
 * The rights of a caller, through this instance's cache: a standard key acts as its user (their permission
 * group); a partner key as its user's partner permission group (partner-rights.ts), as the partner on the
 * partner operations (`scope` partner) and in the organization it reaches otherwise. Internal keys and keys
 * without a user act with full rights in the organizations they reach.
 */
export async function callerRights(deps: Pick<Deps, 'store' | 'clock' | 'rightsCache'>, ctx: CallerContext, scope: PartnerScope = 'org'): Promise<Rights> {
  const cached = cachedRights(deps, ctx, scope);
  if (cached) return cached;
  const own = (userUuid: string) => rightsOfUser(deps, userUuid);
  const rights = ctx.keyKind === 'partner' ? await partnerRights(deps, ctx, scope, own) : await own(ctx.userUuid!);
  deps.rightsCache.set(rightsKey(ctx, scope), rights, deps.clock.now());
  return rights;
}

/** The caller's rights when they need no store read (full rights, or cached); undefined otherwise. */
export function cachedRights(deps: Pick<Deps, 'clock' | 'rightsCache'>, ctx: CallerContext, scope: PartnerScope = 'org'): Rights | undefined {
  if (ctx.userUuid === null || ctx.keyKind === 'internal') return FULL_RIGHTS;
  return deps.rightsCache.get(rightsKey(ctx, scope), deps.clock.now());
}

/** The caller's own permissions (getPermissionsForCurrentUser). */
export async function currentPermissions(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const user = ctx.userUuid && ctx.keyKind === 'standard' ? await groupOfUser(deps, ctx.userUuid) : null;
  const group = user?.groupUuid ? await store.findGroup(deps.store.db, user.orgUuid, user.groupUuid) : undefined;
  if (!group) return { permissionGroupName: null, superAdmin: true, functionalityList: [], locationAccessMap: {}, accessMap: {} };
  const record = toGroupRecord(group);
  return {
    permissionGroupName: record.name,
    superAdmin: record.superAdmin,
    functionalityList: record.functionalityList,
    locationAccessMap: record.locationAccessMap,
    accessMap: record.locationAccessMap,
  };
}
