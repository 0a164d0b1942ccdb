/** The platform's enumerations of the guest management family. */
export const GUEST_TYPES = ['CONTRACTOR', 'INTERVIEWER', 'GENERAL_VISITOR', 'UNPLANNED_VISITOR', 'PARTNER', 'MEETINGS'] as const;
export const GUEST_ACTIVITIES = ['CHECKED_IN', 'CHECKED_OUT', 'AUTO_CHECKED_OUT', 'UPDATED_INFO', 'INVITED'] as const;
export const GUEST_STATUSES = ['INVITED', 'PENDING', 'APPROVED', 'DENIED'] as const;
export const BACKGROUND_CHECK_STATUSES = ['CLEARED', 'NEEDS_ATTENTION'] as const;

export type GuestType = (typeof GUEST_TYPES)[number];
export type GuestActivity = (typeof GUEST_ACTIVITIES)[number];

/** What a guest's record may be given (create, update); the visit fields are the service's. */
export interface GuestFields {
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
  phoneNumber?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
  locationUuid?: string | null;
  hostUserUuid?: string | null;
  guestType?: GuestType | null;
  accessStartTimeMs?: number | null;
  accessEndTimeMs?: number | null;
  meetingParticipants?: string[] | null;
  backgroundCheckStatus?: (typeof BACKGROUND_CHECK_STATUSES)[number] | null;
  status?: (typeof GUEST_STATUSES)[number] | null;
  profileImageUrl?: string | null;
}

/**
 * A guest of an organization (the platform's Guest), known by e-mail address: lower case in `email`, as
 * given in `emailCaseSensitive`. `uuid` is Gatehouse's key of the record (the stream's entity id).
 */
export interface GuestRecord extends GuestFields {
  uuid: string;
  orgUuid: string;
  email: string;
  emailCaseSensitive: string;
  locationUuid: string;
  guestType: GuestType;
  checkedInEnum: GuestActivity | null;
  lastCheckedInMs: number | null;
  lastCheckedOutMs: number | null;
  createdAtMs: number;
}

/** One thing a guest did (the platform's GuestActivityLog). */
export interface GuestActivityRecord {
  activity: GuestActivity;
  /** Who recorded it: API (an operation) or KIOSK (the simulated guest kiosk). */
  agent: 'API' | 'KIOSK';
  associatedCameras: string[];
  email: string;
  guestType: GuestType;
  hostUserUuid: string | null;
  locationUuid: string | null;
  orgUuid: string;
  timestampMs: number;
}
