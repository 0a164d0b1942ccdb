import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid } from '../../schemas/common.js';

const Pin = Type.String({ maxLength: 32, description: "the location's monitoring pin" });

export const MonitoringPinRequest = Type.Object({ locationUuid: Ruuid(), pin: Pin });
export const MonitoringPinResponse = ResponseOf({});

export const CreatePinForLocationRequest = Type.Object({
  locationUuid: Ruuid(),
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

export const LocationStatusRequest = Type.Object({ locationUuid: Ruuid() });
export const LocationStatusResponse = ResponseOf({ status: Field(MonitoringStatus) });

export const OrgStatusRequest = Type.Object({ includeDeleted: Field(Type.Boolean({ description: 'accepted; deleted locations are not kept' })) });
export const OrgStatusResponse = ResponseOf({ locationStatuses: Field(Type.Record(Type.String(), MonitoringStatus)) });
