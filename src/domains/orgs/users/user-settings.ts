import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import type { ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findUser } from '../store.js';
import type { NotificationInterval, PartnerNotificationSettings, TimeFrame } from './notification-settings.schemas.js';
import { PROVISIONER_TYPE } from './user-extras.schemas.js';
import { ownedRecords } from '../owned-records.js';

/** A user's Rhombus Key (mobile app) settings (the reference's user Rhombus Key settings). */
export interface RhombusKeySettings {
  rhombusKeyAccessEnabled: boolean;
  remoteUnlockEnabled: boolean;
  bypassSaml: boolean;
  maxMobileCredsAllowed: number | null;
  startDateProvisionerMs: number | null;
  endDateProvisionerMs: number | null;
}

/**
 * Everything a user sets for themselves or an administrator sets for them, one record per user: sign-in
 * flags (kept and answered: Gatehouse has no interactive sign-in), notification settings (which notify.ts
 * reads: `timeFrames` null means the user follows the organization's template), a partner user's settings
 * per client, and the Rhombus Key settings.
 */
export interface UserSettingsRecord {
  uuid: string;
  orgUuid: string;
  userUuid: string;
  mfaEnabled: boolean;
  bypassSaml: boolean;
  smsPhoneNumbers: string[];
  summaryEmailEnabled: boolean;
  timeFrames: TimeFrame[] | null;
  /** V1 intervals, when the user's settings came from a V1 template. */
  notificationIntervals: NotificationInterval[] | null;
  partnerNotifications: PartnerNotificationSettings | null;
  rhombusKey: RhombusKeySettings | null;
  createdAtMillis: number;
  updatedAtMillis: number;
}

const records = orgRecords({
  entity: 'USER_SETTINGS',
  label: 'User settings',
  ownerOf: (r) => r.userUuid,
  stamp: (r, t) => ({ ...r, createdAtMillis: t.createdAtMs, updatedAtMillis: t.updatedAtMs }),
});
const owned = ownedRecords(records);

const initial = (w: WriteScope, userUuid: string): Omit<UserSettingsRecord, 'uuid'> => ({
  orgUuid: w.actor.orgUuid,
  userUuid,
  mfaEnabled: false,
  bypassSaml: false,
  smsPhoneNumbers: [],
  summaryEmailEnabled: false,
  timeFrames: null,
  notificationIntervals: null,
  partnerNotifications: null,
  rhombusKey: null,
  createdAtMillis: w.nowMs,
  updatedAtMillis: w.nowMs,
});

/** A user's settings, or null while they have set none. */
export const findUserSettings = (source: ReadSource, orgUuid: string, userUuid: string) => owned.find(source, orgUuid, userUuid);

/** The settings of these users (one query), by user uuid. */
export const findUsersSettings = (source: ReadSource, orgUuid: string, userUuids: readonly string[]) => owned.findMany(source, orgUuid, userUuids);

/** The settings of every user of the organization (one query). */
export const listUserSettings = (source: ReadSource, orgUuid: string) => records.list(source, orgUuid);

/** Changes the given fields of a user's settings, in the write (announced as USER_SETTINGS). */
export const putUserSettings = (w: WriteScope, userUuid: string, patch: Partial<UserSettingsRecord>) =>
  owned.upsert(w, userUuid, () => initial(w, userUuid), patch);

/** Deletes a user's settings with the user. */
export const removeUserSettings = (w: WriteScope, userUuid: string) => owned.remove(w, userUuid);

export interface RhombusKeyInput {
  userUuid: string;
  rhombusKeyAccessEnabled?: boolean | null;
  remoteUnlockEnabled?: boolean | null;
  bypassSaml?: boolean | null;
  maxMobileCredsAllowed?: number | null;
  startDateProvisioner?: { value?: number | null } | null;
  endDateProvisioner?: { value?: number | null } | null;
}

const DEFAULT_KEY: RhombusKeySettings = {
  rhombusKeyAccessEnabled: false,
  remoteUnlockEnabled: false,
  bypassSaml: false,
  maxMobileCredsAllowed: null,
  startDateProvisionerMs: null,
  endDateProvisionerMs: null,
};

/** A provisioning date as the catalogue writes it: epoch seconds, its kind named. */
const provisioner = (ms: number | null) => ({ type: PROVISIONER_TYPE, value: ms === null ? null : Math.floor(ms / 1000) });
const msOf = (p: { value?: number | null } | null) => (p?.value === undefined || p.value === null ? null : p.value * 1000);

/** The Rhombus Key config of a user, as updateRhombusKeySettingsForUser answers it. */
export function rhombusKeyConfig(s: UserSettingsRecord) {
  const k = s.rhombusKey ?? DEFAULT_KEY;
  return {
    orgUuid: s.orgUuid,
    rhombusOrgUserUuid: s.userUuid,
    createdAtMillis: s.createdAtMillis,
    updatedAtMillis: s.updatedAtMillis,
    settings: {
      rhombusKeyAccessEnabled: k.rhombusKeyAccessEnabled,
      remoteUnlockEnabled: k.remoteUnlockEnabled,
      bypassSaml: k.bypassSaml,
      credentialProvisioningRules: {
        maxMobileCredsAllowed: k.maxMobileCredsAllowed,
        startDateProvisioner: provisioner(k.startDateProvisionerMs),
        endDateProvisioner: provisioner(k.endDateProvisionerMs),
      },
    },
  };
}

/**
 * Changes the given Rhombus Key settings of a user of the organization (kept and answered: Gatehouse runs
 * no mobile app). A provisioning window must end after it starts.
 */
export async function updateRhombusKey(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, input: RhombusKeyInput) {
  const record = await write(deps, ctx, async (w) => {
    if (!(await findUser(w.tx, ctx.orgUuid, input.userUuid))) throw fail('NOT_FOUND', `User ${input.userUuid}`);
    const current = (await findUserSettings(w, ctx.orgUuid, input.userUuid))?.rhombusKey ?? DEFAULT_KEY;
    const pick = <T>(v: T | null | undefined, old: T): T => (v === undefined || v === null ? old : v);
    const key: RhombusKeySettings = {
      rhombusKeyAccessEnabled: pick(input.rhombusKeyAccessEnabled, current.rhombusKeyAccessEnabled),
      remoteUnlockEnabled: pick(input.remoteUnlockEnabled, current.remoteUnlockEnabled),
      bypassSaml: pick(input.bypassSaml, current.bypassSaml),
      maxMobileCredsAllowed: input.maxMobileCredsAllowed !== undefined ? input.maxMobileCredsAllowed : current.maxMobileCredsAllowed,
      startDateProvisionerMs: input.startDateProvisioner !== undefined ? msOf(input.startDateProvisioner) : current.startDateProvisionerMs,
      endDateProvisionerMs: input.endDateProvisioner !== undefined ? msOf(input.endDateProvisioner) : current.endDateProvisionerMs,
    };
    if (key.startDateProvisionerMs !== null && key.endDateProvisionerMs !== null && key.endDateProvisionerMs <= key.startDateProvisionerMs)
      throw fail('INVALID_VALUE', 'endDateProvisioner: must be after startDateProvisioner');
    return putUserSettings(w, input.userUuid, { rhombusKey: key });
  });
  return rhombusKeyConfig(record);
}
