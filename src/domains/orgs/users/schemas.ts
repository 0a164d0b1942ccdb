import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { SmsPhoneNumbers } from './notification-settings.schemas.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

/** The reference's user type, with the fields Gatehouse keeps. */
export const User = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  firstName: Field(Type.String({ description: 'the first word of the name' })),
  lastName: Field(Type.String({ description: "the rest of the name; '' for a one-word name" })),
  email: Field(Type.String({ description: "lowercase; '' for a user without an address" })),
  emailCaseSensitive: Field(Type.String({ description: 'the address as it was given' })),
  permissionGroupUuid: Field(Ruuid()),
  status: Field(Type.String({ description: 'JOINED' })),
  deleted: Field(Type.Boolean()),
  accountOwner: Field(Type.Boolean({ description: "whose e-mail is the organization's accountOwnerEmail" })),
  mfaEnabled: Field(Type.Boolean()),
  bypassSaml: Field(Type.Boolean()),
  createdAtMillis: Field(Type.Integer()),
  updatedAtMillis: Field(Type.Integer()),
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ minLength: 3, maxLength: 254 });

/** A user as the catalogue lists it (WrappedRhombusOrgUserType): the group is in the answer's userPermissions. */
export const ListedUser = Type.Omit(User, ['permissionGroupUuid']);

export const GetUsersInOrgRequest = EmptyRequest;
export const GetUsersInOrgResponse = ResponseOf({
  users: Field(Type.Array(ListedUser)),
  userPermissions: Field(Type.Array(Type.Object({ userUuid: Field(Ruuid()), orgUuid: Field(Ruuid()), groupUuid: Field(Ruuid()) }))),
});

export const CreateUserRequest = Type.Object({
  name: Name,
  email: Field(Email),
  permissionGroupUuid: Field(RefUuid('permissionGroup', { description: "the user's permission group; none: full rights", notFound: 'Permission group {id}' })),
  accessibleRhombusApps: Field(Type.Array(Type.String())),
  suppressWelcomeEmail: Field(Type.Boolean()),
  suppressRhombusKeyWelcomeEmail: Field(Type.Boolean()),
});
export const CreateUserResponse = ResponseOf({ userUuid: Field(Ruuid()), responseStatus: Field(Type.String()) });

export const UpdateUserRequest = Type.Object({
  userUuid: RefUuid('user', { notFound: 'User {id}' }),
  name: Field(Name),
  permissionGroupUuid: Field(RefUuid('permissionGroup', { notFound: 'Permission group {id}' })),
  mfaEnabled: Field(Type.Boolean()),
  bypassSaml: Field(Type.Boolean()),
  summaryEmailEnabled: Field(Type.Boolean()),
  smsPhoneNumbers: Field(SmsPhoneNumbers),
});

export const AssignEmailToUserRequest = Type.Object({ userUuid: RefUuid('user', { notFound: 'User {id}' }), emailToAssign: Email });
export const UserUuidRequest = Type.Object({ userUuid: RefUuid('user', { notFound: 'User {id}' }) });
export const FindUserByEmailRequest = Type.Object({ email: Email });
export const UserResponse = ResponseOf({ user: Field(User) });
export const CurrentUserRequest = EmptyRequest;
export const UserEnvelope = ResponseOf({});
