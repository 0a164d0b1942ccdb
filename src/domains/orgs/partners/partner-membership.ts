import { fail } from '../../../errors.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import type { WriteScope } from '../../../bus/write.js';
import { superPartnerGroupUuids } from '../permissions/partner-group-records.js';
import * as users from '../users/store.js';

/** Which users of a partner organization hold which partner permission group: reads of the users' table. */

export async function countUsersInPartnerGroup(source: ReadSource, orgUuid: string, groupUuid: string): Promise<number> {
  return users.countUsersInPartnerGroup(dbOf(source), orgUuid, groupUuid);
}

/** The users that hold each partner group of the organization (group uuid to user uuids). */
export async function partnerGroupMembership(source: ReadSource, orgUuid: string): Promise<Record<string, string[]>> {
  const map: Record<string, string[]> = {};
  for (const u of await users.listUsers(dbOf(source), orgUuid)) if (u.partner_group_uuid) (map[u.partner_group_uuid] ??= []).push(u.uuid);
  return map;
}

/** A user's partner group uuid, by the user's uuid alone (null: none, or no such user). */
export async function partnerGroupOfUser(source: ReadSource, userUuid: string): Promise<{ orgUuid: string; groupUuid: string | null } | null> {
  const row = await users.partnerGroupOfUser(dbOf(source), userUuid);
  return row ? { orgUuid: row.org_uuid, groupUuid: row.partner_group_uuid } : null;
}

/** Refuses a write that would leave the partner organization without a user with every partner right. */
export async function assertPartnerAdminRemains(w: WriteScope): Promise<void> {
  const supers = await superPartnerGroupUuids(w, w.actor.orgUuid);
  if ((await users.countAdmins(w.tx, w.actor.orgUuid, supers, 'partner_group_uuid')) === 0) {
    throw fail('NOT_ALLOWED', 'The partner organization would be left without a partner administrator (a user with every partner right)');
  }
}
