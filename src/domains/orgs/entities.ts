/**
 * The entities the orgs domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { OAuthApplicationRecord } from './oauth/service.js';
import type { PartnerPermissionGroupRecord } from './permissions/partner-group-records.js';
import type { PermissionGroupRecord } from './permissions/service.js';
import type { HardwareRecord } from './registrations/service.js';
import type { UserRecord } from './service.js';
import type { OrgSettingsRecord, OrgView } from './settings/service.js';
import type { SamlSettingsRecord, ScimSettingsRecord } from './sso/service.js';
import type { UserView } from './users/service.js';
import type { UserMetadataFieldRecord, UserMetadataTemplateRecord } from './users/user-metadata.service.js';
import type { UserSettingsRecord } from './users/user-settings.js';
import type { UploadedImageRecord } from './uploads/service.js';

/** A user as its DELETE change carries it. */
export type DeletedUser = UserView & { deleted?: boolean };

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    USER: UserRecord | DeletedUser; // a user (on DELETE: marked deleted)
    ORG: OrgView; // the organization (its name or team name changed)
    ORG_SETTINGS: OrgSettingsRecord; // the organization's settings (profile, sign-in, firmware, AI, audio and LLM policies)
    SAML_SETTINGS: SamlSettingsRecord; // a SAML sign-in registration
    SCIM_SETTINGS: ScimSettingsRecord; // SCIM provisioning settings (never the token)
    USER_SETTINGS: UserSettingsRecord; // a user's notification, sign-in and Rhombus Key settings
    USER_METADATA_TEMPLATE: UserMetadataTemplateRecord; // a custom field of the organization's users
    USER_METADATA_FIELD: UserMetadataFieldRecord; // a user's value of a custom field
    PERMISSION_GROUP: PermissionGroupRecord; // a permission group and its rights
    PARTNER_PERMISSION_GROUP: PartnerPermissionGroupRecord; // a partner permission group
    OAUTH_APPLICATION: OAuthApplicationRecord; // an OAuth application of the organization (never its client secret)
    UPLOADED_IMAGE: UploadedImageRecord; // an uploaded logo, floor plan, badge template image or profile photo
    HARDWARE: HardwareRecord; // a unit of a shipment the organization claimed, and its pending registration (never its Wi-Fi key)
  }
}
