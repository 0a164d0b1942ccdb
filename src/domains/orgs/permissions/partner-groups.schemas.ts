import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { FUNCTIONALITIES, PARTNER_FUNCTIONALITIES } from '../../../edge/rights.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Opt = Field;
const ClientPermissionMap = Type.Record(Ruuid(), StringEnum(['DEFAULT', 'CUSTOM'] as const));
// A client organization to permission groups of that client's: both of organizations other than the caller.
const ClientGroupsMap = Type.Record(Ruuid(), NotRef('otherOrg', Type.Array(Ruuid(), { maxItems: 10 })));

const groupFields = {
  uuid: Opt(NotRef('subject', Ruuid())),
  orgUuid: Opt(NotRef('otherOrg', Ruuid())),
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  description: Opt(Type.String({ maxLength: 1000 })),
  superAdmin: Opt(Type.Boolean()),
  functionalityList: Opt(Type.Array(StringEnum(PARTNER_FUNCTIONALITIES), { maxItems: 50 })),
  clientFunctionalityList: Opt(Type.Array(StringEnum(FUNCTIONALITIES), { maxItems: 100 })),
  clientPermissionMap: Opt(ClientPermissionMap),
  clientAssignablePermissionGroupsMap: Opt(NotRef('otherOrg', ClientGroupsMap)),
  assignablePermissionGroups: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 100 }))),
  mutable: Opt(Type.Boolean()),
};

/** The reference's partner permission group. */
export const PartnerPermissionGroup = Type.Object({
  ...groupFields,
  functionalityList: Field(Type.Array(Type.String())),
  clientFunctionalityList: Field(Type.Array(Type.String())),
});

export const CreatePartnerGroupRequest = Type.Object({
  partnerPermissionGroup: Type.Object({ ...groupFields, name: Type.String({ minLength: 1, maxLength: 200 }) }),
});
export const CreatePartnerGroupResponse = ResponseOf({ uuid: Field(Ruuid()) });
export const UpdatePartnerGroupRequest = Type.Object({ partnerPermissionGroup: Type.Object({ ...groupFields, uuid: NotRef('subject', Ruuid()) }) });
export const DeletePartnerGroupRequest = Type.Object({ groupUuid: NotRef('handler', Ruuid()) });
export const PartnerGroupEnvelope = ResponseOf({});
export const GetPartnerGroupsRequest = EmptyRequest;
export const GetPartnerGroupsResponse = ResponseOf({
  permissionGroups: Field(Type.Array(PartnerPermissionGroup)),
  groupMembership: Field(Type.Record(Type.String(), Type.Array(Ruuid()))),
});
export const CurrentPartnerRequest = EmptyRequest;
export const CurrentPartnerResponse = ResponseOf({
  permissionGroupName: Field(Type.String()),
  superAdmin: Field(Type.Boolean()),
  functionalityList: Field(Type.Array(Type.String())),
  clientFunctionalityList: Field(Type.Array(Type.String())),
  clientPermissionMap: Field(ClientPermissionMap),
  assignablePermissionGroups: Field(Type.Array(Ruuid())),
});
