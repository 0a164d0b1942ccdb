import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { RMA_STATUSES } from './logistics.service.js';

const Str = Field(Type.String());
const Rma = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(Ruuid()),
  status: Field(StringEnum(RMA_STATUSES)),
  briefDescription: Str,
  zenDeskTicketSubject: Str,
  zendeskTicket: Field(Type.Integer()),
  timestampSec: Field(Type.Integer()),
  lastUpdatedAtSec: Field(Type.Integer()),
  deleted: Field(Type.Boolean()),
});
export const GetRmasRequest = EmptyRequest;
export const GetRmasResponse = ResponseOf({ rmaList: Field(Type.Array(Rma)) });
export const GetWarrantyApprovedRmasRequest = EmptyRequest;
export const GetWarrantyApprovedRmasResponse = ResponseOf({ zendeskTickets: Field(Type.Array(Type.Integer())) });

const Sec = Type.Integer({ minimum: 0, maximum: 253_402_300_799, description: 'epoch seconds' });
export const GetShipmentsRequest = Type.Object({ startTimeSec: Field(Sec), endTimeSec: Field(Sec) });
const CustomerShipment = Type.Object({
  uuid: Field(Ruuid()),
  'rhombus-orgUuid': Field(Ruuid()),
  'rhombus-salesForceOpportunityId': Str,
  'rhombus-customerEmails': Str,
  'ait-carrierTrackingNumber': Str,
  'ait-shipmentDate': Str,
  'ait-shippedItems': Field(Type.Array(Type.Object({ partNumber: Str, quantityShipped: Field(Type.Integer()), serialNumber: Str }))),
  shipmentCategory: Str,
  shipmentState: Str,
  shipmentEmailState: Str,
  lastStateUpdateSec: Field(Type.Integer()),
});
export const GetShipmentsResponse = ResponseOf({ customerShipmentList: Field(Type.Array(CustomerShipment)) });
