import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { BACKGROUND_CHECK_STATUSES, GUEST_ACTIVITIES, GUEST_STATUSES, GUEST_TYPES } from './guests.model.js';
import { RefUuid } from '../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Text = (max = 200) => Type.String({ maxLength: max });
const Email = Type.String({ minLength: 3, maxLength: 320, description: "the guest's e-mail address: how a guest is named (without case)" });

/** What a guest's record may be given (the platform's Guest, less the visit fields the service keeps). */
const guestFields = {
  email: Opt(Email),
  firstName: Opt(Text()),
  lastName: Opt(Text()),
  companyName: Opt(Text()),
  phoneNumber: Opt(Text(40)),
  address1: Opt(Text()),
  address2: Opt(Text()),
  city: Opt(Text()),
  state: Opt(Text()),
  postalCode: Opt(Text(20)),
  countryCode: Opt(Text(8)),
  locationUuid: Opt(RefUuid('location', { description: 'the location the guest is expected at', notFound: true })),
  hostUserUuid: Opt(RefUuid('user', { notFound: 'Host user' })),
  guestType: Opt(StringEnum(GUEST_TYPES, 'default GENERAL_VISITOR')),
  accessStartTimeMs: Opt(EpochMs('the guest may check in from (inclusive)')),
  accessEndTimeMs: Opt(EpochMs('until (exclusive)')),
  meetingParticipants: Opt(Type.Array(Text(), { maxItems: 100, uniqueItems: true })),
  backgroundCheckStatus: Opt(StringEnum(BACKGROUND_CHECK_STATUSES)),
  status: Opt(StringEnum(GUEST_STATUSES)),
  profileImageUrl: Opt(Text(2000)),
};

export const Guest = Type.Object(
  {
    orgUuid: Field(Ruuid()),
    email: Field(Type.String()),
    emailCaseSensitive: Field(Type.String()),
    firstName: Field(Type.String()),
    lastName: Field(Type.String()),
    companyName: Field(Type.String()),
    phoneNumber: Field(Type.String()),
    address1: Field(Type.String()),
    address2: Field(Type.String()),
    city: Field(Type.String()),
    state: Field(Type.String()),
    postalCode: Field(Type.String()),
    countryCode: Field(Type.String()),
    locationUuid: Field(Ruuid()),
    hostUserUuid: Field(Ruuid()),
    guestType: Field(StringEnum(GUEST_TYPES)),
    accessStartTimeMs: Field(EpochMs()),
    accessEndTimeMs: Field(EpochMs()),
    meetingParticipants: Field(Type.Array(Type.String())),
    backgroundCheckStatus: Field(StringEnum(BACKGROUND_CHECK_STATUSES)),
    status: Field(StringEnum(GUEST_STATUSES)),
    profileImageUrl: Field(Type.String()),
    checkedInEnum: Field(StringEnum(GUEST_ACTIVITIES)),
    lastCheckedInMs: Field(EpochMs()),
    lastCheckedOutMs: Field(EpochMs()),
  },
  { description: 'A guest of the organization' },
);

export const GuestActivityLog = Type.Object({
  activity: Field(StringEnum(GUEST_ACTIVITIES)),
  agent: Field(Type.String({ description: 'API or KIOSK' })),
  associatedCameras: Field(Type.Array(Type.String())),
  email: Field(Type.String()),
  guestType: Field(StringEnum(GUEST_TYPES)),
  hostUserUuid: Field(Ruuid()),
  locationUuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  timestampMs: Field(EpochMs()),
});

export const CreateGuestRequest = Type.Object({
  guest: Type.Object({
    ...guestFields,
    email: Email,
    locationUuid: RefUuid('location', { description: 'the location the guest is expected at', notFound: true }),
  }),
  fileName: Opt(Text()),
});
export const UpdateGuestRequest = Type.Object({
  guest: Opt(Type.Object(guestFields, { description: "the guest's fields, all replaced (named by email)" })),
  guestUpdate: Opt(Type.Object(guestFields, { description: 'the fields to change (named by email)' })),
  fileName: Opt(Text()),
});
export const GuestByEmailRequest = Type.Object({ email: Email });
export const GetGuestResponse = ResponseOf({ guest: Field(Guest) });
export const GetAllGuestsByOrgRequest = Type.Object({});
export const GetAllGuestsResponse = ResponseOf({ allGuests: Field(Type.Array(Guest)) });
export const GuestCheckinRequest = Type.Object({ email: Email, locationUuid: RefUuid('location', { notFound: true }) });
export const GuestEnvelope = ResponseOf({});
const Bounds = { createdAfterMs: Opt(EpochMs('exclusive')), createdBeforeMs: Opt(EpochMs('exclusive')) };
export const GetActivitiesForLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), ...Bounds });
export const GetGuestActivityLogsRequest = Type.Object(Bounds);
export const GetActivitiesForGuestRequest = Type.Object({ email: Email });
export const GuestActivitiesResponse = ResponseOf({ guestActivities: Field(Type.Array(GuestActivityLog)) });
