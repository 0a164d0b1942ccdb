import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { checkAssignableGroup, superAdminGroupUuids } from '../permissions/groups.js';
import { emailColumns, normaliseEmail } from './emails.js';
import * as store from '../store.js';
import type { UsersTable } from '../tables.js';
import { orgSettings } from '../settings/service.js';
import { assertPartnerAdminRemains } from '../partners/partner-membership.js';
import { deleteFieldsOfUser } from './user-metadata.service.js';
import { findUsersSettings, putUserSettings, removeUserSettings, type UserSettingsRecord } from './user-settings.js';
import * as users from './store.js';
import { forgetRecord } from '../../../records/references.js';

type UserDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A user as the user operations answer it (the reference's user type, with the fields Gatehouse keeps). */
export interface UserView {
  uuid: string;
  orgUuid: string;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  emailCaseSensitive: string;
  permissionGroupUuid: string | null;
  status: 'JOINED';
  deleted: boolean;
  accountOwner: boolean;
  mfaEnabled: boolean;
  bypassSaml: boolean;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** What a user's answer takes besides their row: their settings, and the organization's account owner's e-mail. */
interface ViewContext {
  settings: Map<string, UserSettingsRecord>;
  accountOwnerEmail: string | null;
}

/**
 * A user's name as first and last: Gatehouse keeps one name (the operations take one), so the first word is the
 * first name and the rest the last ('' for a one-word name).
 */
function nameParts(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

export function toUserView(row: UsersTable, context?: ViewContext): UserView {
  const settings = context?.settings.get(row.uuid);
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    ...nameParts(row.name),
    // A user without an address has '' (the platform's convention; clients print it unchecked).
    email: row.email ?? '',
    emailCaseSensitive: row.email_case_sensitive ?? row.email ?? '',
    permissionGroupUuid: row.permission_group_uuid ?? null,
    status: 'JOINED',
    deleted: false,
    accountOwner: row.email !== null && row.email === context?.accountOwnerEmail,
    mfaEnabled: settings?.mfaEnabled ?? false,
    bypassSaml: settings?.bypassSaml ?? false,
    createdAtMillis: row.created_at_ms,
    updatedAtMillis: row.updated_at_ms ?? row.created_at_ms,
  };
}

/** The users' answers, with their settings and the account owner (two queries, whatever the number of users). */
export async function userViews(source: ReadSource, orgUuid: string, rows: readonly UsersTable[]): Promise<UserView[]> {
  const context = {
    settings: await findUsersSettings(
      source,
      orgUuid,
      rows.map((r) => r.uuid),
    ),
    accountOwnerEmail: (await orgSettings(source, orgUuid)).accountOwnerEmail,
  };
  return rows.map((row) => toUserView(row, context));
}

const userView = async (source: ReadSource, row: UsersTable): Promise<UserView> => (await userViews(source, row.org_uuid, [row]))[0]!;

async function assertEmailFree(source: ReadSource, orgUuid: string, email: string, userUuid?: string): Promise<void> {
  const holder = await users.findUserByEmail(dbOf(source), orgUuid, email);
  if (holder && holder.uuid !== userUuid) throw fail('CONFLICT', `A user of the organization already has the e-mail address ${email}`);
}

async function userOf(source: ReadSource, orgUuid: string, uuid: string): Promise<UsersTable> {
  const row = await store.findUser(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `User ${uuid}`);
  return row;
}

/** Refuses a write that would leave the organization without a full administrator (no group, or a super-admin group). */
export async function assertAdminRemains(w: WriteScope): Promise<void> {
  const adminGroups = await superAdminGroupUuids(w, w.actor.orgUuid);
  if ((await users.countAdmins(w.tx, w.actor.orgUuid, adminGroups)) === 0) {
    throw fail('NOT_ALLOWED', 'The organization would be left without an administrator (a user with full rights)');
  }
}

/** Announces the user as they now stand. */
export async function announceUser(w: WriteScope, uuid: string, type: 'CREATE' | 'UPDATE'): Promise<UserView> {
  const view = await userView(w, await userOf(w, w.actor.orgUuid, uuid));
  w.change({ entity: 'USER', entityUuid: uuid, type, update: view });
  return view;
}

/** Tells every instance that rights may have changed (after commit; the caches' TTL covers a lost one). */
export async function announceRightsChange(deps: Pick<Deps, 'bus'> & Partial<Pick<Deps, 'rightsCache'>>, orgUuid: string): Promise<void> {
  deps.rightsCache?.clear();
  await deps.bus.publish('permissions.changed', { orgUuid }).catch(() => {});
}

export async function listUsers(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>): Promise<UserView[]> {
  return userViews(deps, ctx.orgUuid, await users.listUsers(deps.store.db, ctx.orgUuid));
}

export async function getUser(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { userUuid: string }): Promise<UserView> {
  return userView(deps, await userOf(deps, ctx.orgUuid, input.userUuid));
}

/** Whether a user of the organization has this e-mail address (compared as stored: trimmed, lowercase). */
export async function emailTaken(source: ReadSource, orgUuid: string, email: string): Promise<boolean> {
  return (await users.findUserByEmail(dbOf(source), orgUuid, email.trim().toLowerCase())) !== undefined;
}

export async function findUserByEmail(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { email: string }): Promise<UserView> {
  const row = await users.findUserByEmail(deps.store.db, ctx.orgUuid, normaliseEmail(input.email));
  if (!row) throw fail('NOT_FOUND', `User with e-mail ${input.email.trim()}`);
  return userView(deps, row);
}

/** The user the caller's key acts as. */
export async function currentUser(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<UserView> {
  if (!ctx.userUuid) throw fail('NOT_FOUND', 'The user of this key');
  return userView(deps, await userOf(deps, ctx.orgUuid, ctx.userUuid));
}

/** The users that hold each group of the organization (group uuid to user uuids). */
export async function groupMembership(source: ReadSource, orgUuid: string): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  for (const u of await users.listUsers(dbOf(source), orgUuid)) {
    if (!u.permission_group_uuid) continue;
    map.set(u.permission_group_uuid, [...(map.get(u.permission_group_uuid) ?? []), u.uuid]);
  }
  return map;
}

export async function countUsersInGroup(source: ReadSource, orgUuid: string, groupUuid: string): Promise<number> {
  return users.countUsersInGroup(dbOf(source), orgUuid, groupUuid);
}

/** A user's group uuid, by the user's uuid alone (null: no group, or no such user). */
export async function groupOfUser(source: ReadSource, userUuid: string): Promise<{ orgUuid: string; groupUuid: string | null } | null> {
  const row = await users.groupOfUser(dbOf(source), userUuid);
  return row ? { orgUuid: row.org_uuid, groupUuid: row.permission_group_uuid } : null;
}

export interface UserInput {
  name?: string | null;
  email?: string | null;
  permissionGroupUuid?: string | null;
  mfaEnabled?: boolean | null;
  bypassSaml?: boolean | null;
  summaryEmailEnabled?: boolean | null;
  smsPhoneNumbers?: string[] | null;
}

const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** The user's own settings that a user write gives (sign-in flags, SMS numbers, summary e-mail). */
function settingsOf(input: UserInput): Partial<UserSettingsRecord> | null {
  const patch = {
    mfaEnabled: given(input.mfaEnabled),
    bypassSaml: given(input.bypassSaml),
    summaryEmailEnabled: given(input.summaryEmailEnabled),
    smsPhoneNumbers: given(input.smsPhoneNumbers),
  };
  return Object.values(patch).some((v) => v !== undefined) ? patch : null;
}

/** Creates a user of the caller's organization; the e-mail address is unique in the organization. */
export async function addUser(deps: UserDeps, ctx: CallerContext, input: UserInput & { name: string }): Promise<UserView> {
  const name = input.name.trim();
  if (!name) throw fail('INVALID_VALUE', 'name: must not be empty');
  const emails = emailColumns(input.email);
  return write(deps, ctx, async (w) => {
    if (emails.email) await assertEmailFree(w, ctx.orgUuid, emails.email);
    if (input.permissionGroupUuid) await checkAssignableGroup(w, ctx.orgUuid, input.permissionGroupUuid);
    const uuid = newRuuid();
    await store.insertUser(w.tx, {
      uuid,
      org_uuid: ctx.orgUuid,
      name,
      ...emails,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
      permission_group_uuid: input.permissionGroupUuid ?? null,
    });
    return announceUser(w, uuid, 'CREATE');
  });
}

/** Changes the given fields of a user; a group change takes effect on the user's keys at once. */
export async function changeUser(
  deps: UserDeps & Partial<Pick<Deps, 'rightsCache'>>,
  ctx: CallerContext,
  userUuid: string,
  input: UserInput,
): Promise<UserView> {
  const view = await write(deps, ctx, (w) => reviseUser(w, userUuid, input));
  if (input.permissionGroupUuid !== undefined) await announceRightsChange(deps, ctx.orgUuid);
  return view;
}

/**
 * changeUser inside a write (a site file seeded again changes its users in the seed's write); a group change
 * takes effect on the user's keys once the caller announces the rights change after the commit.
 */
export async function reviseUser(w: WriteScope, userUuid: string, input: UserInput): Promise<UserView> {
  const orgUuid = w.actor.orgUuid;
  const patch: users.UserPatch = { updated_at_ms: w.nowMs };
  if (input.name != null) {
    patch.name = input.name.trim();
    if (!patch.name) throw fail('INVALID_VALUE', 'name: must not be empty');
  }
  if (input.email != null) Object.assign(patch, emailColumns(input.email));
  const regroup = input.permissionGroupUuid !== undefined;
  const row = await userOf(w, orgUuid, userUuid);
  if (patch.email) await assertEmailFree(w, orgUuid, patch.email, row.uuid);
  if (input.permissionGroupUuid) await checkAssignableGroup(w, orgUuid, input.permissionGroupUuid);
  if (regroup) patch.permission_group_uuid = input.permissionGroupUuid ?? null;
  await users.updateUser(w.tx, orgUuid, row.uuid, patch);
  const settings = settingsOf(input);
  if (settings) await putUserSettings(w, row.uuid, settings);
  if (regroup) await assertAdminRemains(w);
  return announceUser(w, row.uuid, 'UPDATE');
}

/**
 * Deletes a user in one transaction with the end of their API keys (their stream sessions close) and
 * their removal from other domains' records (`deps.recordCleaners.user`: their access credentials are revoked, they leave clips' allowed users and lockdown plans). Refused for the organization's last administrator.
 */
export async function deleteUser(
  deps: UserDeps & Pick<Deps, 'keyCache' | 'recordCleaners'> & Partial<Pick<Deps, 'rightsCache'>>,
  ctx: CallerContext,
  input: { userUuid: string },
): Promise<void> {
  const keyIds = await write(deps, ctx, async (w) => {
    const row = await userOf(w, ctx.orgUuid, input.userUuid);
    const keys = await users.liveKeysOfUser(w.tx, ctx.orgUuid, row.uuid);
    await users.revokeKeysOfUser(w.tx, ctx.orgUuid, row.uuid, w.nowMs);
    for (const key of keys) w.audit({ entity: 'API_KEY', entityUuid: key.id, action: 'REVOKE' });
    await forgetRecord(deps, w, 'user', row.uuid);
    const view = await userView(w, row);
    await removeUserSettings(w, row.uuid);
    await deleteFieldsOfUser(w, row.uuid);
    await users.deleteUser(w.tx, ctx.orgUuid, row.uuid);
    await assertAdminRemains(w);
    await assertPartnerAdminRemains(w);
    w.change({ entity: 'USER', entityUuid: row.uuid, type: 'DELETE', update: { ...view, deleted: true } });
    return keys.map((k) => k.id);
  });
  for (const keyId of keyIds) {
    deps.keyCache.forgetKey(keyId);
    await deps.bus.publish('key.revoked', { orgUuid: ctx.orgUuid, keyId }).catch(() => {});
  }
  await announceRightsChange(deps, ctx.orgUuid);
}
