import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findPartnerGroup } from '../permissions/partner-group-records.js';
import { assertPartnerAdminRemains, partnerGroupOfUser } from './partner-membership.js';
import type { PartnerNotificationSettings } from '../users/notification-settings.schemas.js';
import { asPartner, isClientOf } from './grants.js';
import * as store from '../store.js';
import { findUsersSettings, putUserSettings } from '../users/user-settings.js';
import { announceRightsChange, listUsers, type UserView } from '../users/service.js';
import * as users from '../users/store.js';

type PartnerUserDeps = Pick<Deps, 'store' | 'bus' | 'clock'> & Partial<Pick<Deps, 'rightsCache'>>;

export interface PartnerUsersAnswer {
  partnerUsers: UserView[];
  partnerPermissions: Array<{ userUuid: string; orgUuid: string; groupUuid: string }>;
  notificationSettingsV2: Array<PartnerNotificationSettings & { orgUuid: string; userUuid: string }>;
}

/** The partner organization's users, their partner groups and their notification settings. */
export async function listPartnerUsers(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<PartnerUsersAnswer> {
  const home = asPartner(ctx);
  const list = await listUsers(deps, home);
  const rows = await users.listUsers(deps.store.db, home.orgUuid);
  const settings = await findUsersSettings(
    deps,
    home.orgUuid,
    list.map((u) => u.uuid),
  );
  return {
    partnerUsers: list,
    partnerPermissions: rows.filter((r) => r.partner_group_uuid).map((r) => ({ userUuid: r.uuid, orgUuid: r.org_uuid, groupUuid: r.partner_group_uuid! })),
    notificationSettingsV2: list.flatMap((u) => {
      const s = settings.get(u.uuid)?.partnerNotifications;
      return s ? [{ ...s, orgUuid: home.orgUuid, userUuid: u.uuid }] : [];
    }),
  };
}

/** Whether the caller may give a partner user this partner group: with every partner right, or the group is assignable by its own. */
async function checkAssignable(w: WriteScope, ctx: CallerContext, groupUuid: string): Promise<void> {
  if (!(await findPartnerGroup(w, w.actor.orgUuid, groupUuid))) throw fail('NOT_FOUND', `Partner permission group ${groupUuid}`);
  const own = ctx.userUuid ? await partnerGroupOfUser(w, ctx.userUuid) : null;
  const group = own?.groupUuid ? await findPartnerGroup(w, w.actor.orgUuid, own.groupUuid) : null;
  if (group && !group.superAdmin && !group.assignablePermissionGroups.includes(groupUuid))
    throw fail('NOT_ALLOWED', `Your partner permission group may not assign partner permission group ${groupUuid}`);
}

/** Checks that every client a partner user's settings name is a client of the partner. */
async function checkClients(w: WriteScope, settings: PartnerNotificationSettings): Promise<void> {
  const named = [
    ...Object.keys(settings.clientNotificationIntervalsMap ?? {}),
    ...[...Object.values(settings.clientNotificationIntervalsMap ?? {}), settings.notificationIntervalsForAllClients ?? []].flatMap((list) =>
      list.flatMap((i) => i.clientUuids ?? []),
    ),
  ];
  for (const client of new Set(named)) if (!(await isClientOf(w, w.actor.orgUuid, client))) throw fail('NOT_FOUND', `Client ${client}`);
}

export interface PartnerUserInput {
  userUuid: string;
  name?: string | null;
  permissionGroupUuid?: string | null;
  mfaEnabled?: boolean | null;
  bypassSaml?: boolean | null;
  smsPhoneNumbers?: string[] | null;
  summaryEmailEnabled?: boolean | null;
  notificationSettingsV2?: PartnerNotificationSettings | null;
}

const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/**
 * Changes a partner user: name, partner group (one the caller's group may assign; refused when it would
 * leave the partner without a partner administrator), sign-in flags and notification settings.
 */
export async function updatePartnerUser(deps: PartnerUserDeps, ctx: CallerContext, input: PartnerUserInput): Promise<void> {
  const home = asPartner(ctx);
  const regroup = input.permissionGroupUuid !== undefined;
  await write(deps, home, async (w) => {
    const row = await store.findUser(w.tx, home.orgUuid, input.userUuid);
    if (!row) throw fail('NOT_FOUND', `User ${input.userUuid}`);
    const patch: users.UserPatch = { updated_at_ms: w.nowMs };
    if (input.name != null) {
      patch.name = input.name.trim();
      if (!patch.name) throw fail('INVALID_VALUE', 'name: must not be empty');
    }
    if (input.permissionGroupUuid) await checkAssignable(w, home, input.permissionGroupUuid);
    if (regroup) patch.partner_group_uuid = input.permissionGroupUuid ?? null;
    await users.updateUser(w.tx, home.orgUuid, row.uuid, patch);
    if (regroup) await assertPartnerAdminRemains(w);
    if (input.notificationSettingsV2) await checkClients(w, input.notificationSettingsV2);
    await putUserSettings(w, row.uuid, {
      mfaEnabled: given(input.mfaEnabled),
      bypassSaml: given(input.bypassSaml),
      smsPhoneNumbers: given(input.smsPhoneNumbers ?? input.notificationSettingsV2?.smsPhoneNumbers),
      summaryEmailEnabled: given(input.summaryEmailEnabled ?? input.notificationSettingsV2?.summaryEmailEnabled),
      partnerNotifications: given(input.notificationSettingsV2),
    });
    if (patch.name || regroup) w.audit({ entity: 'USER', entityUuid: row.uuid, action: 'UPDATE' });
  });
  if (regroup) await announceRightsChange(deps, home.orgUuid);
}
