import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

export const CreatePartnerClientRequest = Type.Object({
  clientOrgName: Type.String({ minLength: 1, maxLength: 200 }),
  clientContactName: Field(Type.String({ maxLength: 200 })),
  clientContactEmail: Field(Type.String({ maxLength: 254 })),
  suppressWelcomeEmail: Field(Type.Boolean()),
});
export const CreatePartnerClientResponse = ResponseOf({ clientOrgUuid: Field(Ruuid()), responseStatus: Field(Type.String()) });

export const DeleteClientRequest = Type.Object({ clientOrgUuid: NotRef('otherOrg', Ruuid()) });
export const PartnerEnvelope = ResponseOf({});
