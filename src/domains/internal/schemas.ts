import { Type } from 'typebox';
import { Field, ResponseOf } from '../../schemas/common.js';
import { SHIPMENT_EMAIL_STATES, type ShipmentEmailState } from './service.js';
import { NotRef } from '../../schemas/record-kinds.js';

const OppId = Type.String({ minLength: 1, maxLength: 200 });

export const SendShipmentShippedEmailRequest = Type.Object({
  crmOppId: Type.Optional(NotRef('external', { ...OppId, description: 'the sales opportunity whose shipment has shipped' })),
  salesforceOppId: Type.Optional(NotRef('external', { ...OppId, description: "the reference catalogue's name of crmOppId" })),
});

export const ShipmentEmailResponse = ResponseOf({
  customerShipmentEmailState: Field(Type.Unsafe<ShipmentEmailState>(Type.String({ enum: [...SHIPMENT_EMAIL_STATES] }))),
  legacyMsg: Field(Type.String()),
  trackingIdentifier: Field(Type.String()),
});
