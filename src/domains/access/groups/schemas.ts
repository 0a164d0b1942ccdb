import { Type, type TSchema } from 'typebox';
import { EmptyRequest, EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { GROUP_TYPES } from './service.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const GroupName = Type.String({ minLength: 1, maxLength: 200 });
const UserUuids = Type.Array(RefUuid('user', { notFound: 'User {id}' }), { maxItems: 1000, description: 'users of the organization' });
const GroupType = StringEnum(GROUP_TYPES, "the catalogue's group type (stored as PLATFORM_ACCESS_CONTROL)");

export const AccessControlGroup = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    name: Field(Type.String()),
    description: Field(Type.String()),
    locationUuid: Field(Ruuid()),
    type: Field(GroupType),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: 'Access control group' },
);

export const AccessControlGroupMember = Type.Object(
  {
    groupUuid: Field(Ruuid()),
    userUuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    type: Field(GroupType),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: "A user's membership of an access control group" },
);

const Groups = ResponseOf({ groups: Field(Type.Array(AccessControlGroup)) });
const Members = ResponseOf({ groupMembers: Field(Type.Array(AccessControlGroupMember)) });
const GroupUuid = Type.Object({ groupUuid: RefUuid('accessGroup', { notFound: 'Access control group {id}' }) });
const UserUuid = Type.Object({ userUuid: RefUuid('user', { notFound: 'User {id}' }) });
const GroupUsers = Type.Object({ groupUuid: RefUuid('accessGroup', { notFound: 'Access control group {id}' }), userUuids: UserUuids });

export const CreateAccessControlGroupRequest = Type.Object({
  name: GroupName,
  description: Opt(Type.String({ maxLength: 1000 })),
  locationUuid: Opt(RefUuid('location', { notFound: 'Location {id}' })),
  userUuids: Opt(UserUuids),
});
export const CreateAccessControlGroupResponse = ResponseOf({
  group: Field(AccessControlGroup),
  groupMembers: Field(Type.Array(AccessControlGroupMember)),
});
export const UpdateAccessControlGroupRequest = Type.Object({
  groupUuid: RefUuid('accessGroup', { notFound: 'Access control group {id}' }),
  name: Opt(GroupName),
  description: Opt(Type.String({ maxLength: 1000 })),
});
export const UpdateAccessControlGroupResponse = ResponseOf({ group: Field(AccessControlGroup) });
export const DeleteAccessControlGroupRequest = GroupUuid;
export const EmptyResponse = ResponseOf({});
export const FindAccessControlGroupsByOrgRequest = EmptyRequest;
export const FindAccessControlGroupsByNamePrefixRequest = Type.Object({ groupNamePrefix: Type.String({ maxLength: 200 }) });
export const FindAccessControlGroupByExactNameRequest = Type.Object({ groupName: GroupName });
export const FindAccessControlGroupByExactNameResponse = ResponseOf({ group: Field(AccessControlGroup) });
export const FindAccessControlGroupsByUserMembershipRequest = UserUuid;
export const FindAccessControlGroupMembershipsByUserRequest = UserUuid;
export const FindAccessControlGroupMembershipsByUserResponse = ResponseOf({ userGroupMemberships: Field(Type.Array(AccessControlGroupMember)) });
export const FindAllUsersForAccessControlGroupRequest = GroupUuid;
export const GroupUsersRequest = GroupUsers;
export { Groups as GroupsResponse, Members as MembersResponse };
