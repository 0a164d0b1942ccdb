import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findLocation } from '../../devices/service.js';
import { findUser, findUsers } from '../../orgs/service.js';
import { touchAccessVersion } from '../access-version.js';
import * as rules from '../grants/store.js';
import type { AccessGroupMembersTable, AccessGroupsTable } from '../grants/tables.js';
import * as store from './store.js';
import { forgetRecord, type RecordCleaner, type RecordFinder } from '../../../records/references.js';
import { orgUuidsIn } from '../../../store/org-uuids.js';

type GroupDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type DeleteDeps = GroupDeps & Pick<Deps, 'recordCleaners'>;
type ReadDeps = Pick<Deps, 'store'>;
type Ctx = Pick<CallerContext, 'orgUuid'>;

/** The record finder of kind accessGroup (src/records/references.ts). */
export const findAccessGroupUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'access_groups', orgUuid, uuids);

/** The catalogue's group types (OrgGroupEnumType), as answers name them. */
export const GROUP_TYPES = ['RHOMBUS_ACCESS_CONTROL', 'GUEST_MANAGEMENT_HOST'] as const;
export type GroupType = (typeof GROUP_TYPES)[number];
const ACCESS_GROUP_TYPE: GroupType = GROUP_TYPES[0];
/**
 * The type every group of this domain keeps in its row: the catalogue's RHOMBUS_ACCESS_CONTROL, stored as the
 * specification names the platform's own things (its credential types are PLATFORM_SECURE_CSN, ...).
 */
const STORED_ACCESS_GROUP_TYPE = 'PLATFORM_ACCESS_CONTROL';
const answeredGroupType = (stored: string): GroupType => (stored === STORED_ACCESS_GROUP_TYPE ? ACCESS_GROUP_TYPE : (stored as GroupType));

/** An access control group as the REST API answers it (the catalogue's OrgGroupType). */
export interface AccessGroupRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  description: string | null;
  locationUuid: string | null;
  type: GroupType;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** A user's membership of a group (the catalogue's OrgGroupMemberType). */
export interface GroupMemberRecord {
  groupUuid: string;
  userUuid: string;
  orgUuid: string;
  type: GroupType;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** A membership change as the stream carries it: the group, and the users that joined or left it. */
export interface GroupMembersChange {
  groupUuid: string;
  orgUuid: string;
  userUuids: string[];
}

const toGroupRecord = (row: AccessGroupsTable): AccessGroupRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  name: row.name,
  description: row.description,
  locationUuid: row.location_uuid,
  type: answeredGroupType(row.type),
  createdAtMillis: Number(row.created_at_ms),
  updatedAtMillis: Number(row.updated_at_ms),
});

const toMemberRecord = (row: AccessGroupMembersTable): GroupMemberRecord => ({
  groupUuid: row.group_uuid,
  userUuid: row.user_uuid,
  orgUuid: row.org_uuid,
  type: ACCESS_GROUP_TYPE,
  createdAtMillis: Number(row.created_at_ms),
  updatedAtMillis: Number(row.updated_at_ms),
});

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'name: must not be empty');
  return trimmed;
}

/** The users, every one of the organization (another organization's is answered as an unknown one). */
export async function requireUsers(source: ReadSource, orgUuid: string, userUuids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(userUuids)];
  const found = new Set((await findUsers(source, orgUuid, wanted)).map((u) => u.uuid));
  const missing = wanted.find((u) => !found.has(u));
  if (missing) throw fail('NOT_FOUND', `User ${missing}`);
  return wanted;
}

export async function requireUser(source: ReadSource, orgUuid: string, userUuid: string): Promise<void> {
  if (!(await findUser(source, orgUuid, userUuid))) throw fail('NOT_FOUND', `User ${userUuid}`);
}

async function groupOf(source: ReadSource, orgUuid: string, uuid: string): Promise<AccessGroupsTable> {
  const row = await store.findGroup(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `Access control group ${uuid}`);
  return row;
}

/** The organization's groups among the uuids, every one of which must exist. */
export async function requireGroups(source: ReadSource, orgUuid: string, groupUuids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(groupUuids)];
  const found = new Set((await store.findGroups(dbOf(source), orgUuid, wanted)).map((g) => g.uuid));
  const missing = wanted.find((g) => !found.has(g));
  if (missing) throw fail('NOT_FOUND', `Access control group ${missing}`);
  return wanted;
}

async function refuseTakenName(w: WriteScope, name: string, except?: string): Promise<void> {
  const holder = await store.findGroupByNameKey(w.tx, w.actor.orgUuid, name.toLowerCase());
  if (holder && holder.uuid !== except) throw fail('CONFLICT', `The organization already has an access control group named "${holder.name}"`);
}

/** Adds the users to the group (those already in it stay as they are); answers the group's members after. */
async function addMembers(w: WriteScope, group: AccessGroupsTable, userUuids: readonly string[]): Promise<GroupMemberRecord[]> {
  const orgUuid = w.actor.orgUuid;
  const current = new Set((await store.listMemberships(w.tx, orgUuid, { groupUuid: group.uuid })).map((m) => m.user_uuid));
  const joining = userUuids.filter((u) => !current.has(u));
  await store.insertMembers(
    w.tx,
    joining.map((user_uuid) => ({ group_uuid: group.uuid, user_uuid, org_uuid: orgUuid, created_at_ms: w.nowMs, updated_at_ms: w.nowMs })),
  );
  if (joining.length > 0) {
    w.change({
      entity: 'ACCESS_CONTROL_GROUP_MEMBERS',
      entityUuid: group.uuid,
      type: 'CREATE',
      update: { groupUuid: group.uuid, orgUuid, userUuids: joining },
    });
    await touchAccessVersion(w);
  }
  return (await store.listMemberships(w.tx, orgUuid, { groupUuid: group.uuid })).map(toMemberRecord);
}

export interface CreateGroupInput {
  name: string;
  description?: string | null;
  locationUuid?: string | null;
  userUuids?: string[] | null;
}

/** Creates a group in the caller's write (the seeder's too): its name is unique in the organization, whatever its case. */
export async function insertGroup(w: WriteScope, input: CreateGroupInput): Promise<{ group: AccessGroupRecord; groupMembers: GroupMemberRecord[] }> {
  const orgUuid = w.actor.orgUuid;
  const name = checkedName(input.name);
  if (input.locationUuid != null && !(await findLocation(w, orgUuid, input.locationUuid))) throw fail('NOT_FOUND', `Location ${input.locationUuid}`);
  const users = await requireUsers(w, orgUuid, input.userUuids ?? []);
  await refuseTakenName(w, name);
  const row: AccessGroupsTable = {
    uuid: newRuuid(),
    org_uuid: orgUuid,
    name,
    name_key: name.toLowerCase(),
    description: input.description ?? null,
    location_uuid: input.locationUuid ?? null,
    type: STORED_ACCESS_GROUP_TYPE,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.insertGroup(w.tx, row);
  const group = toGroupRecord(row);
  w.change({ entity: 'ACCESS_CONTROL_GROUP', entityUuid: row.uuid, type: 'CREATE', update: group });
  await touchAccessVersion(w);
  return { group, groupMembers: await addMembers(w, row, users) };
}

export function createGroup(deps: GroupDeps, ctx: CallerContext, input: CreateGroupInput) {
  return write(deps, ctx, (w) => insertGroup(w, input));
}

/** Renames a group or changes its description; a field left out keeps its value. */
export async function updateGroup(
  deps: GroupDeps,
  ctx: CallerContext,
  input: { groupUuid: string; name?: string | null; description?: string | null },
): Promise<AccessGroupRecord> {
  return write(deps, ctx, async (w) => {
    const row = await groupOf(w, ctx.orgUuid, input.groupUuid);
    const name = input.name != null ? checkedName(input.name) : undefined;
    if (name !== undefined) await refuseTakenName(w, name, row.uuid);
    await store.updateGroup(w.tx, ctx.orgUuid, row.uuid, {
      ...(name !== undefined ? { name, name_key: name.toLowerCase() } : {}),
      ...(input.description != null ? { description: input.description } : {}),
      updated_at_ms: w.nowMs,
    });
    const group = toGroupRecord(await groupOf(w, ctx.orgUuid, row.uuid));
    w.change({ entity: 'ACCESS_CONTROL_GROUP', entityUuid: row.uuid, type: 'UPDATE', update: group });
    return group;
  });
}

/**
 * Deletes a group and its memberships. Refused while a grant or revocation names it: dropping a group from a
 * revocation silently would widen access, so the caller edits those first. Lockdown plans let it go: that only narrows who keeps access.
 */
export async function deleteGroup(deps: DeleteDeps, ctx: CallerContext, input: { groupUuid: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await groupOf(w, ctx.orgUuid, input.groupUuid);
    const naming = await rules.listRuleNamesNaming(w.tx, ctx.orgUuid, 'GROUP', row.uuid);
    if (naming.length > 0) {
      const names = naming.map((r) => `${r.kind === 'GRANT' ? 'grant' : 'revocation'} "${r.name}"`).join(', ');
      throw fail('CONFLICT', `Access control group "${row.name}" is named by ${names}`);
    }
    await forgetRecord(deps, w, 'accessGroup', row.uuid);
    await store.deleteGroup(w.tx, ctx.orgUuid, row.uuid);
    w.change({ entity: 'ACCESS_CONTROL_GROUP', entityUuid: row.uuid, type: 'DELETE', update: toGroupRecord(row) });
    await touchAccessVersion(w);
  });
}

/** The organization's groups by name (case aside): all, by name prefix (case aside), or those a user is in. */
export async function listGroups(deps: ReadDeps, ctx: Ctx, filter: { namePrefix?: string; memberUuid?: string } = {}): Promise<AccessGroupRecord[]> {
  if (filter.memberUuid !== undefined) await requireUser(deps, ctx.orgUuid, filter.memberUuid);
  const rows = await store.listGroups(deps.store.db, ctx.orgUuid, { namePrefix: filter.namePrefix?.toLowerCase(), memberUuid: filter.memberUuid });
  return rows.map(toGroupRecord);
}

/** The group with exactly this name (case included). */
export async function findGroupByExactName(deps: ReadDeps, ctx: Ctx, name: string): Promise<AccessGroupRecord> {
  const row = await store.findGroupByNameKey(deps.store.db, ctx.orgUuid, name.toLowerCase());
  if (!row || row.name !== name) throw fail('NOT_FOUND', `Access control group named "${name}"`);
  return toGroupRecord(row);
}

export async function listMembershipsOfUser(deps: ReadDeps, ctx: Ctx, userUuid: string): Promise<GroupMemberRecord[]> {
  await requireUser(deps, ctx.orgUuid, userUuid);
  return (await store.listMemberships(deps.store.db, ctx.orgUuid, { userUuid })).map(toMemberRecord);
}

/** The uuids of the groups a user is in: how finders reach the grants that name a user's groups. */
export async function groupUuidsOfUser(source: ReadSource, orgUuid: string, userUuid: string): Promise<string[]> {
  return (await store.listMemberships(dbOf(source), orgUuid, { userUuid })).map((m) => m.group_uuid);
}

export async function listMembers(deps: ReadDeps, ctx: Ctx, groupUuid: string): Promise<GroupMemberRecord[]> {
  await groupOf(deps, ctx.orgUuid, groupUuid);
  return (await store.listMemberships(deps.store.db, ctx.orgUuid, { groupUuid })).map(toMemberRecord);
}

/** `addUsersToAccessControlGroup`: answers every member of the group after the change. */
export async function addUsersToGroup(deps: GroupDeps, ctx: CallerContext, input: { groupUuid: string; userUuids: string[] }): Promise<GroupMemberRecord[]> {
  return write(deps, ctx, async (w) => {
    const group = await groupOf(w, ctx.orgUuid, input.groupUuid);
    return addMembers(w, group, await requireUsers(w, ctx.orgUuid, input.userUuids));
  });
}

/** A deleted user leaves every access control group they were in (`deps.recordCleaners.user`), each group's change announced. */
export const accessGroupsForgetUser: RecordCleaner = async (w, userUuid) => {
  const orgUuid = w.actor.orgUuid;
  const memberships = await store.listMemberships(w.tx, orgUuid, { userUuid });
  for (const { group_uuid } of memberships) {
    await store.deleteMembers(w.tx, orgUuid, group_uuid, [userUuid]);
    w.change({
      entity: 'ACCESS_CONTROL_GROUP_MEMBERS',
      entityUuid: group_uuid,
      type: 'DELETE',
      update: { groupUuid: group_uuid, orgUuid, userUuids: [userUuid] },
    });
  }
  if (memberships.length > 0) await touchAccessVersion(w);
};

/** A deleted location leaves the groups of it (`deps.recordCleaners.location`): they stay, of no location, each announced. */
export const accessGroupsForgetLocation: RecordCleaner = async (w, locationUuid) => {
  for (const row of await store.listGroupsAt(w.tx, w.actor.orgUuid, locationUuid)) {
    await store.updateGroup(w.tx, row.org_uuid, row.uuid, { location_uuid: null, updated_at_ms: w.nowMs });
    const group = toGroupRecord({ ...row, location_uuid: null, updated_at_ms: w.nowMs });
    w.change({ entity: 'ACCESS_CONTROL_GROUP', entityUuid: row.uuid, type: 'UPDATE', update: group });
  }
};

/** `removeUsersFromAccessControlGroup`: users of the organization that are not members are passed over. */
export async function removeUsersFromGroup(deps: GroupDeps, ctx: CallerContext, input: { groupUuid: string; userUuids: string[] }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const group = await groupOf(w, ctx.orgUuid, input.groupUuid);
    const users = await requireUsers(w, ctx.orgUuid, input.userUuids);
    const current = new Set((await store.listMemberships(w.tx, ctx.orgUuid, { groupUuid: group.uuid })).map((m) => m.user_uuid));
    const leaving = users.filter((u) => current.has(u));
    if (leaving.length === 0) return;
    await store.deleteMembers(w.tx, ctx.orgUuid, group.uuid, leaving);
    w.change({
      entity: 'ACCESS_CONTROL_GROUP_MEMBERS',
      entityUuid: group.uuid,
      type: 'DELETE',
      update: { groupUuid: group.uuid, orgUuid: ctx.orgUuid, userUuids: leaving },
    });
    await touchAccessVersion(w);
  });
}

/** Whether the organization has a group of this name, whatever its case (the seeder checks before it writes). */
/**
 * The organization's access groups, name to uuid, the names in lower case as their uniqueness counts them (a
 * site file seeded again finds its groups by name).
 */
export async function groupUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName((await store.listGroups(dbOf(source), orgUuid)).map((g) => ({ name: g.name.trim().toLowerCase(), uuid: g.uuid })));
}
