import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';

/** The reference's partner client, with `name` and `orgUuid` as the platform's CLI reads them. */
export const PartnerClient = Type.Object({
  clientOrgUuid: Field(Ruuid()),
  clientOrgName: Field(Type.String()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  authorityUuid: Field(Ruuid()),
  clientAccessAllowed: Field(Type.Boolean()),
  createdAtMillis: Field(Type.Integer()),
  totalLocations: Field(Type.Integer()),
  totalCameras: Field(Type.Integer()),
  totalAudioGateways: Field(Type.Integer()),
  totalBadgeReaders: Field(Type.Integer()),
  totalClimateSensors: Field(Type.Integer()),
});

export const GetClientsRequest = EmptyRequest;
export const GetClientsResponse = ResponseOf({ clients: Field(Type.Array(PartnerClient)), partnerClients: Field(Type.Array(PartnerClient)) });

export const CreatePartnerClientRequest = Type.Object({
  clientOrgName: Type.String({ minLength: 1, maxLength: 200 }),
  clientContactName: Field(Type.String({ maxLength: 200 })),
  clientContactEmail: Field(Type.String({ maxLength: 254 })),
  suppressWelcomeEmail: Field(Type.Boolean()),
});
export const CreatePartnerClientResponse = ResponseOf({ clientOrgUuid: Field(Ruuid()), responseStatus: Field(Type.String()) });

export const DeleteClientRequest = Type.Object({ clientOrgUuid: Ruuid() });
export const PartnerEnvelope = ResponseOf({});
