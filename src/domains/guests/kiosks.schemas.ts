import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { RefUuid, NotRef } from '../../schemas/record-kinds.js';
import { KIOSK_CONNECTION_STATUSES } from './kiosks.service.js';

export const UpdateKioskRequest = Type.Object({
  kioskUpdate: Type.Object({
    uuid: NotRef('created', Ruuid({ description: "the kiosk's id; its record is made on its first update" })),
    orgUuid: NotRef('callerOrg', Field(Ruuid())),
    name: Field(Type.String({ maxLength: 200 })),
    locationUuid: Field(RefUuid('location')),
    hostUserUuid: Field(RefUuid('user')),
    printerIP: Field(Type.String({ maxLength: 64 })),
    batteryLevel: Field(Type.Number({ minimum: 0, maximum: 100 })),
    connectionStatus: Field(StringEnum(KIOSK_CONNECTION_STATUSES)),
    latitude: Field(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Field(Type.Number({ minimum: -180, maximum: 180 })),
    deleted: Field(Type.Boolean()),
    lastUpdateTimeMs: Field(Type.Integer({ description: 'accepted; the server stamps its own time' })),
    updatedSetMethodMap: Field(Type.Record(Type.String(), Type.Boolean(), { description: 'field name to whether to set it; absent: every field given' })),
  }),
});
export const UpdateKioskResponse = ResponseOf({});
