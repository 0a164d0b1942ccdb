import { Type } from 'typebox';
import { Field, ResponseOf } from '../../../schemas/common.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

const Pin = Type.String({ maxLength: 32, description: "the location's monitoring pin" });

export const MonitoringPinRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), pin: Pin });
export const MonitoringPinResponse = ResponseOf({});

export const CreatePinForLocationRequest = Type.Object({
  locationUuid: RefUuid('location', { notFound: true }),
  name: Field(Type.String({ maxLength: 200, description: 'accepted; a location has one pin, so it is not kept' })),
  description: Field(Type.String({ maxLength: 1000, description: 'accepted; not kept' })),
});
export const CreatePinForLocationResponse = ResponseOf({ pin: Field(Type.String({ description: 'the new pin, shown only in this answer' })) });

const MonitoringStatus = Type.Object({
  enabled: Field(Type.Boolean()),
  enabledOnMs: Field(Type.Integer()),
  disabledOnMs: Field(Type.Integer()),
  notEnabledReason: Field(Type.String()),
});

export const LocationStatusRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }) });
export const LocationStatusResponse = ResponseOf({ status: Field(MonitoringStatus) });

export const OrgStatusRequest = Type.Object({ includeDeleted: Field(Type.Boolean({ description: 'accepted; deleted locations are not kept' })) });
export const OrgStatusResponse = ResponseOf({ locationStatuses: Field(Type.Record(Type.String(), MonitoringStatus)) });

export const CreateCustomPinForLocationRequest = Type.Object({
  locationUuid: RefUuid('location', { notFound: true }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  pin: Type.String({ pattern: '^[0-9]{4,8}$', description: '4 to 8 digits; kept only as a salted digest' }),
  description: Field(Type.String({ maxLength: 1000 })),
});
export const CreateCustomPinForLocationResponse = ResponseOf({ alreadyExists: Field(Type.Boolean()) });
export const DeletePinForLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), pin: Pin });
export const GetAlertMonitoringSettingsForLocationRequest = Type.Object({
  locationUuid: RefUuid('location', { notFound: true }),
  includePreviousVersions: Field(Type.Boolean({ description: 'accepted; earlier versions of the settings are not kept' })),
});
export const GetAlertMonitoringSettingsForLocationResponse = ResponseOf({
  alertMonitoringSettings: Field(
    Type.Object({
      orgUuid: Field(Type.String()),
      locationUuid: Field(Type.String()),
      enabled: Field(Type.Boolean()),
      enabledOnMs: Field(Type.Integer()),
      disabledOnMs: Field(Type.Integer()),
      monitoringMode: Field(Type.String()),
      status: Field(MonitoringStatus),
      pins: Field(
        Type.Array(Type.Object({ name: Field(Type.String()), description: Field(Type.String()), pin: Field(Type.String({ description: 'never answered' })) })),
      ),
      deleted: Field(Type.Boolean()),
      subLocationsHierarchyKey: Field(Type.Object({ locationUuids: Field(Type.Array(Type.String())) })),
    }),
  ),
  previousVersions: Field(Type.Array(Type.Object({}))),
});
