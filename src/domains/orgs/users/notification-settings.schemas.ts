import { Type, type Static } from 'typebox';
import { ACTIVITIES } from '../../../schemas/activities.js';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/*
 * The shapes of notification settings: a user's (V2 time frames), the organization's template (V1 intervals
 * and V2 time frames), and a partner user's (per client). notify.ts decides from them who is notified.
 */

export const MEDIUMS = ['SMS', 'EMAIL', 'APP', 'SLACK', 'MICROSOFT_TEAMS', 'BROWSER', 'UNKNOWN'] as const;
export const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export type Day = (typeof DAYS)[number];

const Opt = Field;
/** Locations and devices the settings keep: each resolved at the edge, refused as the platform words it (`Location <id> not found`). */
const Locations = Type.Array(RefUuid('location', { notFound: 'Location {id}' }), { maxItems: 10_000 });
const Devices = Type.Array(RefUuid('device', { notFound: 'Device {id}' }), { maxItems: 10_000 });
const Activities = Type.Array(StringEnum(ACTIVITIES), { maxItems: 500 });
/** Diagnostic activities (CAMERA_DISCONNECTED, ...): kept as given; Gatehouse raises no diagnostic notifications. */
const Diagnostics = Type.Array(Type.String({ pattern: '^[A-Z0-9_]{1,64}$' }), { maxItems: 500 });
const Mediums = Type.Array(StringEnum(MEDIUMS), { maxItems: 10 });
const MinuteOfWeek = Type.Integer({ minimum: 0, maximum: 10_080 });
const MinuteOfDay = Type.Integer({ minimum: 0, maximum: 1440 });

/** Which devices (facet ids or uuids), locations and activities a time frame's row covers. */
export const NotificationRow = Type.Object({
  activities: Opt(Activities),
  devices: Opt(NotRef('handler', Type.Array(Type.String({ minLength: 22, maxLength: 40 }), { maxItems: 10_000 }))),
  diagnostics: Opt(Diagnostics),
  locations: Opt(Locations),
  locationOnly: Opt(Locations),
  locationOnlyActivities: Opt(Activities),
  locationOnlyDiagnostics: Opt(Diagnostics),
  promptUuids: Opt(Type.Array(RefUuid('prompt'), { maxItems: 10_000 })),
});

export type NotificationRow = Static<typeof NotificationRow>;

export const MinuteOfDayInterval = Type.Object({
  dayOfWeek: Opt(Type.Integer({ minimum: 0, maximum: 7 })),
  minuteOfDayStartInclusive: Opt(MinuteOfDay),
  minuteOfDayStopExclusive: Opt(MinuteOfDay),
});

/** A V2 time frame: on these days, in this interval of the location's day, these rows, by these mediums. */
export const TimeFrame = Type.Object({
  days: Opt(Type.Array(StringEnum(DAYS), { maxItems: 7 })),
  interval: Opt(MinuteOfDayInterval),
  mediums: Opt(Mediums),
  rows: Opt(Type.Array(NotificationRow, { maxItems: 200 })),
});
export type TimeFrame = Static<typeof TimeFrame>;

const TriggerMap = Type.Record(Type.String({ maxLength: 64 }), Mediums);

/** A V1 interval: minutes of the week (0 = Monday 00:00), activity to mediums, device and location filters. */
export const NotificationInterval = Type.Object({
  minuteOfWeekStart: Opt(MinuteOfWeek),
  minuteOfWeekStop: Opt(MinuteOfWeek),
  activityTriggerMap: Opt(TriggerMap),
  diagnosticTriggerMap: Opt(TriggerMap),
  locationActivityTriggerMap: Opt(TriggerMap),
  locationDiagnosticTriggerMap: Opt(TriggerMap),
  deviceFilterSet: Opt(Devices),
  locationFilterSet: Opt(Locations),
  locationOnlyFilterSet: Opt(Locations),
});
export type NotificationInterval = Static<typeof NotificationInterval>;

export const SmsPhoneNumbers = Type.Array(Type.String({ pattern: '^\\+?[0-9 ()-]{3,32}$' }), { maxItems: 20 });

/** A user's notification settings (updateUserNotificationSettings and updateCurrentUserNotificationSettings). */
export const UserNotificationSettingsRequest = Type.Object({
  orgUuid: Opt(NotRef('callerOrg', Ruuid())),
  userUuid: Opt(RefUuid('user', { description: "the user; updateCurrentUserNotificationSettings: the key's own user", notFound: 'User {id}' })),
  smsPhoneNumbers: Opt(SmsPhoneNumbers),
  summaryEmailEnabled: Opt(Type.Boolean()),
  timeFrames: Opt(Type.Array(TimeFrame, { maxItems: 100 })),
  updatedSetMethodMap: Opt(Type.Record(Type.String(), Type.Boolean())),
});
export type UserNotificationSettingsRequest = Static<typeof UserNotificationSettingsRequest>;

/** The answer's view of a user's (or the template's) V2 settings. */
export const NotificationSettingsV2 = Type.Object({
  orgUuid: Field(Ruuid()),
  userUuid: Field(Ruuid()),
  smsPhoneNumbers: Field(Type.Array(Type.String())),
  summaryEmailEnabled: Field(Type.Boolean()),
  timeFrames: Field(Type.Array(TimeFrame)),
});

/** A partner user's settings: intervals for every client, or per client (client uuid to intervals). */
const ClientIntervals = Type.Array(
  Type.Object({
    clientUuids: Opt(NotRef('otherOrg', Type.Array(Ruuid(), { maxItems: 10_000 }))),
    rows: Opt(
      Type.Array(
        Type.Object({
          activities: Opt(Activities),
          days: Opt(Type.Array(StringEnum(DAYS), { maxItems: 7 })),
          diagnostics: Opt(Diagnostics),
          interval: Opt(MinuteOfDayInterval),
          mediums: Opt(Mediums),
        }),
        { maxItems: 200 },
      ),
    ),
  }),
  { maxItems: 100 },
);
export const PartnerNotificationSettings = Type.Object({
  allClientsSelected: Opt(Type.Boolean()),
  clientNotificationIntervalsMap: Opt(Type.Record(Ruuid(), ClientIntervals)),
  notificationIntervalsForAllClients: Opt(ClientIntervals),
  smsPhoneNumbers: Opt(SmsPhoneNumbers),
  summaryEmailEnabled: Opt(Type.Boolean()),
});
export type PartnerNotificationSettings = Static<typeof PartnerNotificationSettings>;

// --- Operations ---

export const NotificationEnvelope = ResponseOf({});

export const GetUserNotificationSettingsRequest = Type.Object({ userUuid: RefUuid('user', { notFound: 'User {id}' }) });
export const GetUserNotificationSettingsResponse = ResponseOf({
  notificationSettings: Field(
    Type.Object({
      ...NotificationSettingsV2.properties,
      notificationIntervalsV2: Field(Type.Array(NotificationInterval)),
      followsOrgTemplate: Field(Type.Boolean({ description: "true: the user set none of their own and follows the organization's template" })),
    }),
  ),
});

export const GetOrgTemplateRequest = EmptyRequest;
export const GetOrgTemplateResponse = ResponseOf({
  notificationSettings: Field(
    Type.Object({
      orgUuid: Field(Ruuid()),
      userUuid: Field(Ruuid()),
      smsPhoneNumbers: Field(Type.Array(Type.String())),
      summaryEmailEnabled: Field(Type.Boolean()),
      notificationIntervalsV2: Field(Type.Array(NotificationInterval)),
    }),
  ),
});
export const UpdateOrgTemplateRequest = Type.Object({
  notificationIntervalsV2: Opt(Type.Array(NotificationInterval, { maxItems: 200 })),
  summaryEmailEnabled: Opt(Type.Boolean()),
});
export const GetOrgTemplateV2Response = ResponseOf({ notificationSettings: Field(NotificationSettingsV2) });
export const UpdateOrgTemplateV2Request = Type.Object({
  summaryEmailEnabled: Opt(Type.Boolean()),
  templateUpdate: Opt(
    Type.Object({
      orgUuid: Opt(NotRef('callerOrg', Ruuid())),
      userUuid: Opt(NotRef('handler', Ruuid())),
      smsPhoneNumbers: Opt(SmsPhoneNumbers),
      summaryEmailEnabled: Opt(Type.Boolean()),
      timeFrames: Opt(Type.Array(TimeFrame, { maxItems: 100 })),
      updatedSetMethodMap: Opt(Type.Record(Type.String(), Type.Boolean())),
    }),
  ),
});

/** The year 3000: no snooze starts later. */
const LAST_START_SEC = 32_503_680_000;
const SnoozeTiming = {
  durationSec: Type.Integer({ minimum: 1, maximum: 365 * 24 * 3600, description: 'how long the snooze lasts (at most a year)' }),
  scheduledTimestampSec: Opt(Type.Integer({ minimum: 0, maximum: LAST_START_SEC, description: 'when it starts, epoch seconds (default: now)' })),
};
export const SnoozeAllRequest = Type.Object(SnoozeTiming);
export const SnoozeTargetsRequest = Type.Object({
  ...SnoozeTiming,
  deviceUuids: Opt(Type.Array(RefUuid('device', { notFound: 'Device {id}' }), { maxItems: 1000 })),
  locationUuids: Opt(Type.Array(RefUuid('location', { notFound: 'Location {id}' }), { maxItems: 1000 })),
  // A component composite is a door.
  componentCompositeUuids: Opt(Type.Array(RefUuid('door', { notFound: 'Component composite {id}' }), { maxItems: 1000 })),
});
export const SnoozeUuidRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
const Interval = Type.Object({ uuid: Field(Ruuid()), timestampSec: Field(Type.Integer()), durationSecs: Field(Type.Integer()) });
const IntervalMap = Type.Record(Type.String(), Type.Array(Interval));
export const GetSnoozedRequest = EmptyRequest;
export const GetSnoozedResponse = ResponseOf({
  snoozedForAllNotificationsIntervals: Field(Type.Array(Interval)),
  snoozedForDevicesMap: Field(IntervalMap),
  snoozedForLocationsMap: Field(IntervalMap),
  snoozedForComponentCompositesMap: Field(IntervalMap),
});
