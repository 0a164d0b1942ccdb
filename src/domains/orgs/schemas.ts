import { Type, type Static } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../schemas/common.js';

/** The organization record (the reference's OrgV2Type / OrgType, with the fields Gatehouse keeps). */
export const Org = Type.Object({
  uuid: Ruuid(),
  name: Field(Type.String()),
  createdAtMillis: Field(Type.Integer()),
  deleted: Field(Type.Boolean()),
});

export const GetOrgV2Request = EmptyRequest;
export const GetOrgV2Response = ResponseOf(
  {
    org: Field(Org),
    orgUuid: Field(Ruuid({ description: 'the organization UUID, needed for stream subscriptions' })),
    featureFlags: Field(Type.Record(Type.String(), Type.String())),
  },
  'Organization details (V2)',
);
export type GetOrgV2Response = Static<typeof GetOrgV2Response>;

export const GetOrganizationRequest = EmptyRequest;
export const GetOrganizationResponse = ResponseOf({ org: Field(Org) }, 'Organization record');
