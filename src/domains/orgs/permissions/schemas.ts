import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { ACCESS_LEVELS, FUNCTIONALITIES } from '../../../edge/rights.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Level = Type.Enum([...ACCESS_LEVELS]);
const Functionality = Type.Enum([...FUNCTIONALITIES]);
const LevelMap = Type.Record(Type.String(), Level);

/** The reference's user permission group, with the fields Gatehouse keeps. */
export const PermissionGroup = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  description: Field(Type.String()),
  superAdmin: Field(Type.Boolean()),
  functionalityList: Field(Type.Array(Type.String())),
  locationAccessMap: Field(LevelMap),
  accessibleLocations: Field(Type.Array(Ruuid())),
  defaultPermissionForNewLocations: Field(Level),
  mutable: Field(Type.Boolean()),
});

const groupInput = {
  uuid: Field(NotRef('subject', Ruuid())),
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
  name: Field(Type.String({ minLength: 1, maxLength: 200 })),
  description: Field(Type.String({ maxLength: 1000 })),
  superAdmin: Field(Type.Boolean()),
  functionalityList: Field(Type.Array(Functionality, { maxItems: 100 })),
  locationAccessMap: Field(LevelMap),
  accessibleLocations: Field(Type.Array(RefUuid('location', { notFound: 'Location {id}' }), { maxItems: 10_000 })),
};

export const GetPermissionGroupsRequest = EmptyRequest;
export const GetPermissionGroupsResponse = ResponseOf({
  permissionGroups: Field(Type.Array(PermissionGroup)),
  groupMembership: Field(Type.Record(Type.String(), Type.Array(Ruuid()))),
});

export const CreatePermissionGroupRequest = Type.Object({
  userPermissionGroup: Type.Object({ ...groupInput, name: Type.String({ minLength: 1, maxLength: 200 }) }),
});
export const CreatePermissionGroupResponse = ResponseOf({ uuid: Field(Ruuid()) });

export const UpdatePermissionGroupRequest = Type.Object({
  userPermissionGroup: Type.Object({ ...groupInput, uuid: RefUuid('permissionGroup', { notFound: 'Permission group {id}' }) }),
});
export const DeletePermissionGroupRequest = Type.Object({ groupUuid: RefUuid('permissionGroup', { notFound: 'Permission group {id}' }) });
export const AssignPermissionGroupRequest = Type.Object({
  userUuid: RefUuid('user', { notFound: 'User {id}' }),
  groupUuid: RefUuid('permissionGroup', { notFound: 'Permission group {id}' }),
});
export const PermissionEnvelope = ResponseOf({});

export const GetPermissionsForCurrentUserRequest = EmptyRequest;
export const GetPermissionsForCurrentUserResponse = ResponseOf({
  permissionGroupName: Field(Type.String()),
  superAdmin: Field(Type.Boolean()),
  functionalityList: Field(Type.Array(Type.String())),
  locationAccessMap: Field(LevelMap),
  accessMap: Field(LevelMap),
});
