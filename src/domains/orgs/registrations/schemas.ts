import { Type } from 'typebox';
import { EmptyRequest, EnvelopeResponse, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';
import { SHIPPABLE_TYPES } from './service.js';

const Serial = Type.String({ minLength: 1, maxLength: 64, description: "the unit's serial number" });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Token = (description: string) => NotRef('subject', Ruuid({ description }));

/** A unit of hardware (the platform's HardwareType). */
export const Hardware = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid({ description: 'the organization that claimed its shipment' })),
  serialNumber: Field(Type.String()),
  mac: Field(Type.String()),
  type: Field(StringEnum(SHIPPABLE_TYPES)),
  hwVariation: Field(Type.String()),
  deviceUuid: Field(Ruuid({ description: 'the device it registered as; null until it comes online' })),
  pendingRegistrationOrgUuid: Field(Ruuid({ description: 'the organization of its pending registration; null without one' })),
  manufacturedAtMillis: Field(Type.Integer()),
});

const PendingRegistrationInfo = Type.Object({
  locationUuid: Field(Ruuid()),
  name: Field(Type.String()),
  policyUuid: Field(Ruuid()),
});

export const CreatePendingRegistrationRequest = Type.Object({
  serialNumber: Serial,
  locationUuid: Field(RefUuid('location', 'where the device stands once it comes online')),
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
  wifiSsid: Field(Type.String({ maxLength: 64 })),
  wifiPsk: Field(Type.Array(Type.String({ maxLength: 256, contentEncoding: 'base64' }), { maxItems: 8, description: 'kept sealed, never answered' })),
});

export const UpdatePendingRegistrationRequest = Type.Object({
  hardwareUuid: NotRef('subject', Ruuid({ description: 'the unit whose pending registration changes' })),
  locationUuid: Field(RefUuid('location')),
  name: Field(Name),
  policyUuid: Field(RefUuid('cameraPolicy')),
});

export const RemovePendingRegistrationRequest = Type.Object({ serialNumber: Serial });

export const FindHardwareRequest = EmptyRequest;
export const FindAllHardwareWithPendingRegistrationResponse = ResponseOf({
  hardwareList: Field(Type.Array(Hardware, { deprecated: true })),
  hardwareWithPendingRegistrationInfoList: Field(
    Type.Array(Type.Object({ hardware: Field(Hardware), hwUuid: Field(Ruuid()), pendingRegistrationInfo: Field(PendingRegistrationInfo) })),
  ),
});
export const FindHardwareAvailableForPendingRegistrationResponse = ResponseOf({ hardwareList: Field(Type.Array(Hardware)) });

export const ClaimActivationTokenRequest = Type.Object({
  activationToken: Type.String({ minLength: 1, maxLength: 64, description: "a shipment's token" }),
  name: Field(Name),
  permissionGroupUuid: Field(RefUuid('permissionGroup')),
});

export const ClaimShipmentRegistrationTokenRequest = Type.Object({
  tokenUuid: Token('the shipment registration token'),
  claimList: Field(
    Type.Array(
      Type.Object({
        hardwareUuid: Field(NotRef('handler', Ruuid({ description: 'a unit of the shipment' }))),
        deviceName: Field(Name),
        locationUuid: Field(RefUuid('location')),
        policyUuid: Field(RefUuid('cameraPolicy')),
      }),
      { maxItems: 1000 },
    ),
  ),
});

export const PeekShipmentRegistrationTokenRequest = Type.Object({ tokenUuid: Token('the shipment registration token') });
export const PeekShipmentRegistrationTokenResponse = ResponseOf({ hardwareUuidList: Field(Type.Array(Ruuid())) });

export const RegistrationEnvelope = EnvelopeResponse;
