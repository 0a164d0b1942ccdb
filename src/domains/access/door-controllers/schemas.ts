import { Type, type Static } from 'typebox';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

export const UpdateDoorControllerDetailsRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'The door controller' })),
  name: Field(Type.String({ maxLength: 200 })),
  description: Field(Type.String({ maxLength: 2000 })),
  locationUuid: Field(NotRef('handler', Ruuid())),
  floorNumber: Field(Type.Integer({ minimum: -200, maximum: 500 })),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  directionRadians: Field(Type.Number()),
});
export type UpdateDoorControllerDetailsInput = Static<typeof UpdateDoorControllerDetailsRequest>;

export const UpdateDoorControllerDetailsResponse = ResponseOf({ warningMsg: Field(Type.String()) });

export const RegisterDiscoveredReaderRequest = Type.Object({
  doorControllerUuid: RefUuid('device', { description: 'The door controller that discovered the reader', notFound: 'Door controller' }),
  serialNumber: Type.String({ minLength: 1, maxLength: 100, description: 'The reader’s serial number' }),
  boardNum: Field(Type.Integer({ minimum: 0, maximum: 64 })),
  portNum: Field(Type.Integer({ minimum: 0, maximum: 64 })),
});
export type RegisterDiscoveredReaderInput = Static<typeof RegisterDiscoveredReaderRequest>;

export const RegisterDiscoveredReaderResponse = ResponseOf({});
