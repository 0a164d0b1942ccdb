import { findUser } from '../orgs/service.js';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords } from '../../records/org-records.js';
import type { ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { findDevices } from '../devices/service.js';
import type { NotificationInterval, NotificationRow, TimeFrame, UserNotificationSettingsRequest } from '../orgs/users/notification-settings.schemas.js';
import { ownedRecords } from '../orgs/owned-records.js';
import { findUserSettings, listUserSettings, putUserSettings, type UserSettingsRecord } from '../orgs/users/user-settings.js';
import type { RecordCleaner } from '../../records/references.js';

type NotificationDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/**
 * The organization's notification template: the settings of every user who has set none of their own
 * (notify.ts reads it for them), in the V1 form (minutes of the week) and the V2 form (time frames).
 */
export interface OrgNotificationTemplateRecord {
  uuid: string;
  orgUuid: string;
  summaryEmailEnabled: boolean;
  smsPhoneNumbers: string[];
  notificationIntervals: NotificationInterval[];
  timeFrames: TimeFrame[];
  updatedAtMillis: number;
}

const templates = ownedRecords(
  orgRecords({
    entity: 'ORG_NOTIFICATION_TEMPLATE',
    label: 'Notification template',
    ownerOf: (r) => r.orgUuid,
    check: async (w, r) => (await checkReferences(w, r.timeFrames, r.notificationIntervals), r),
    stamp: (r, t) => ({ ...r, updatedAtMillis: t.updatedAtMs }),
  }),
);

const emptyTemplate = (orgUuid: string): Omit<OrgNotificationTemplateRecord, 'uuid'> => ({
  orgUuid,
  summaryEmailEnabled: false,
  smsPhoneNumbers: [],
  notificationIntervals: [],
  timeFrames: [],
  updatedAtMillis: 0,
});

/**
 * Checks the devices a row names by facet id (`<device>.v0`), which the edge cannot resolve as it does the
 * settings' other ids (locations, intervals' devices: RefUuid in the schema), and the intervals' bounds.
 */
async function checkReferences(w: WriteScope, frames: readonly TimeFrame[], intervals: readonly NotificationInterval[]): Promise<void> {
  const devices = new Set(frames.flatMap((f) => f.rows ?? []).flatMap((r) => (r.devices ?? []).map((d) => d.split('.')[0]!)));
  const known = await findDevices(w, w.actor.orgUuid, [...devices]);
  for (const d of devices) if (!known.has(d)) throw fail('NOT_FOUND', `Device ${d}`);
  for (const [i, interval] of intervals.entries()) {
    if ((interval.minuteOfWeekStart ?? 0) >= (interval.minuteOfWeekStop ?? 10_080))
      throw fail('INVALID_VALUE', `notificationIntervalsV2[${i}]: minuteOfWeekStart must be before minuteOfWeekStop`);
  }
  for (const [i, frame] of frames.entries()) {
    if ((frame.interval?.minuteOfDayStartInclusive ?? 0) >= (frame.interval?.minuteOfDayStopExclusive ?? 1440))
      throw fail('INVALID_VALUE', `timeFrames[${i}].interval: minuteOfDayStartInclusive must be before minuteOfDayStopExclusive`);
  }
}

export async function orgTemplate(source: ReadSource, orgUuid: string): Promise<Omit<OrgNotificationTemplateRecord, 'uuid'>> {
  return (await templates.find(source, orgUuid, orgUuid)) ?? emptyTemplate(orgUuid);
}

/** updateOrgNotificationTemplate (V1) and updateOrgNotificationTemplateV2: the fields given. */
export async function updateTemplate(
  deps: NotificationDeps,
  ctx: CallerContext,
  patch: { [K in 'summaryEmailEnabled' | 'smsPhoneNumbers' | 'notificationIntervals' | 'timeFrames']?: OrgNotificationTemplateRecord[K] | null },
): Promise<void> {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined && v !== null));
  await write(deps, ctx, (w) => templates.upsert(w, ctx.orgUuid, () => emptyTemplate(ctx.orgUuid), given));
}

/** The settings that decide a user's notifications: their own, or the organization's template. */
export interface EffectiveSettings {
  userUuid: string;
  orgUuid: string;
  followsOrgTemplate: boolean;
  smsPhoneNumbers: string[];
  summaryEmailEnabled: boolean;
  timeFrames: TimeFrame[];
  notificationIntervals: NotificationInterval[];
}

export function effectiveSettings(
  userUuid: string,
  own: UserSettingsRecord | null | undefined,
  template: Omit<OrgNotificationTemplateRecord, 'uuid'>,
): EffectiveSettings {
  const follows = !own || own.timeFrames === null;
  return {
    userUuid,
    orgUuid: template.orgUuid,
    followsOrgTemplate: follows,
    smsPhoneNumbers: own?.smsPhoneNumbers.length ? own.smsPhoneNumbers : template.smsPhoneNumbers,
    summaryEmailEnabled: own ? own.summaryEmailEnabled : template.summaryEmailEnabled,
    timeFrames: follows ? template.timeFrames : own.timeFrames!,
    notificationIntervals: follows ? template.notificationIntervals : (own.notificationIntervals ?? []),
  };
}

async function userOf(source: ReadSource, orgUuid: string, userUuid: string | null): Promise<string> {
  if (!userUuid) throw fail('NOT_FOUND', 'The user of this key');
  if (!(await findUser(source, orgUuid, userUuid))) throw fail('NOT_FOUND', `User ${userUuid}`);
  return userUuid;
}

/** A user's notification settings as they take effect. */
export async function userNotificationSettings(deps: Pick<Deps, 'store'>, ctx: CallerContext, userUuid: string | null): Promise<EffectiveSettings> {
  const uuid = await userOf(deps, ctx.orgUuid, userUuid);
  return effectiveSettings(uuid, await findUserSettings(deps, ctx.orgUuid, uuid), await orgTemplate(deps, ctx.orgUuid));
}

/**
 * Sets a user's notification settings (time frames, SMS numbers, summary e-mail); from then on they follow
 * their own time frames, not the organization's template. `timeFrames: []` asks for no notifications.
 */
export async function setUserNotificationSettings(
  deps: NotificationDeps,
  ctx: CallerContext,
  userUuid: string | null,
  input: UserNotificationSettingsRequest,
): Promise<void> {
  await write(deps, ctx, async (w) => {
    const uuid = await userOf(w, ctx.orgUuid, userUuid);
    if (input.timeFrames) await checkReferences(w, input.timeFrames, []);
    await putUserSettings(w, uuid, {
      timeFrames: input.timeFrames ?? undefined,
      notificationIntervals: input.timeFrames ? null : undefined,
      smsPhoneNumbers: input.smsPhoneNumbers ?? undefined,
      summaryEmailEnabled: input.summaryEmailEnabled ?? undefined,
    });
  });
}

/** The ids a deleted record leaves in notification settings: a prompt's, or a location's. */
type Forgotten = { promptUuid: string } | { locationUuid: string };

/**
 * Time frames without the record (null when no row named it, so that nothing is written). A row whose devices
 * and locations named only a deleted location loses its activities too: it covered that location alone, and
 * with no filter left it would cover everywhere.
 */
function framesWithout(frames: readonly TimeFrame[] | null | undefined, gone: Forgotten): TimeFrame[] | null {
  const without = (list: string[] | null | undefined, id: string) => list?.filter((x) => x !== id);
  const row = (r: NotificationRow): NotificationRow => {
    if ('promptUuid' in gone) return r.promptUuids ? { ...r, promptUuids: without(r.promptUuids, gone.promptUuid) } : r;
    const locations = without(r.locations, gone.locationUuid);
    const widened = !r.devices?.length && r.locations?.length && !locations?.length;
    return { ...r, locations, locationOnly: without(r.locationOnly, gone.locationUuid), ...(widened ? { activities: [], diagnostics: [] } : {}) };
  };
  const next = (frames ?? []).map((f) => ({ ...f, rows: f.rows?.map(row) }));
  return JSON.stringify(next) === JSON.stringify(frames ?? []) ? null : next;
}

/**
 * V1 intervals without a deleted location (null when none named it). An interval whose location filter named
 * only that location goes: emptied, the filter would pass every location.
 */
function intervalsWithout(intervals: readonly NotificationInterval[] | null | undefined, locationUuid: string): NotificationInterval[] | null {
  if (!intervals?.some((i) => i.locationFilterSet?.includes(locationUuid) || i.locationOnlyFilterSet?.includes(locationUuid))) return null;
  return intervals
    .filter((i) => !(i.locationFilterSet?.length && i.locationFilterSet.every((l) => l === locationUuid)))
    .map((i) => ({
      ...i,
      locationFilterSet: i.locationFilterSet?.filter((l) => l !== locationUuid),
      locationOnlyFilterSet: i.locationOnlyFilterSet?.filter((l) => l !== locationUuid),
    }));
}

/** A deleted prompt or location leaves the organization's template and every user's settings, each change announced. */
const notificationsForget =
  (of: (uuid: string) => Forgotten): RecordCleaner =>
  async (w, uuid) => {
    const gone = of(uuid);
    const template = await templates.find(w, w.actor.orgUuid, w.actor.orgUuid);
    const templateFrames = framesWithout(template?.timeFrames, gone);
    const templateIntervals = 'locationUuid' in gone ? intervalsWithout(template?.notificationIntervals, gone.locationUuid) : null;
    if (templateFrames || templateIntervals)
      await templates.upsert(w, w.actor.orgUuid, () => emptyTemplate(w.actor.orgUuid), {
        ...(templateFrames ? { timeFrames: templateFrames } : {}),
        ...(templateIntervals ? { notificationIntervals: templateIntervals } : {}),
      });
    for (const settings of await listUserSettings(w, w.actor.orgUuid)) {
      const frames = framesWithout(settings.timeFrames, gone);
      const intervals = 'locationUuid' in gone ? intervalsWithout(settings.notificationIntervals, gone.locationUuid) : null;
      if (frames || intervals)
        await putUserSettings(w, settings.userUuid, { ...(frames ? { timeFrames: frames } : {}), ...(intervals ? { notificationIntervals: intervals } : {}) });
    }
  };

/** A deleted prompt leaves the organization's template and every user's time frames. */
export const notificationsForgetPrompt = notificationsForget((promptUuid) => ({ promptUuid }));
/** A deleted location leaves the organization's template and every user's time frames and intervals. */
export const notificationsForgetLocation = notificationsForget((locationUuid) => ({ locationUuid }));
