import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { listPartnerUsers, updatePartnerUser } from '../partners/partner-users.service.js';
import * as schemas from './user-extras.schemas.js';
import * as metadata from './user-metadata.service.js';
import { updateRhombusKey } from './user-settings.js';

const tags = ['User'];

/** Custom user fields (with their values checked against their templates), Rhombus Key settings, and partner users. */
export function userExtraRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/user/metadata/createUserMetadataFieldTemplate',
      operationId: 'createUserMetadataFieldTemplate',
      summary: 'Create a custom field of the users, with the kind of value it takes',
      tags,
      body: schemas.CreateTemplateRequest,
      response: schemas.TemplateResponse,
    },
    async (input, ctx) => ({ template: await metadata.createTemplate(deps, ctx, input.template) }),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/updateUserMetadataFieldTemplate',
      operationId: 'updateUserMetadataFieldTemplate',
      summary: 'Change the given fields of a custom field',
      description: 'Refused when a value already saved would not meet the changed template.',
      tags,
      body: schemas.UpdateTemplateRequest,
      response: schemas.TemplateResponse,
    },
    async (input, ctx) => ({ template: await metadata.updateTemplate(deps, ctx, input.selectiveUpdate.uuid, input.selectiveUpdate) }),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/deleteUserMetadataFieldTemplate',
      operationId: 'deleteUserMetadataFieldTemplate',
      summary: "Delete a custom field and every user's value of it",
      tags,
      body: schemas.TemplateUuidRequest,
      response: schemas.TemplateResponse,
    },
    async (input, ctx) => ({ template: await metadata.deleteTemplate(deps, ctx, input.templateUuid) }),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/findUserMetadataFieldTemplates',
      operationId: 'findUserMetadataFieldTemplates',
      summary: "The organization's custom user fields, by uuid",
      tags,
      body: schemas.FindTemplatesRequest,
      response: schemas.TemplateMapResponse,
    },
    async (_input, ctx) => ({ templateMap: await metadata.templateMap(deps, ctx.orgUuid) }),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/saveUserMetadataFields',
      operationId: 'saveUserMetadataFields',
      summary: "Save a user's values of custom fields, each checked against its template (all or none)",
      tags,
      body: schemas.SaveFieldsRequest,
      response: schemas.FieldsResponse,
    },
    async (input, ctx) => metadata.saveFields(deps, ctx, input.userUuid, input.fieldValueMap),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/findUserMetadataFields',
      operationId: 'findUserMetadataFields',
      summary: "A user's values of the custom fields",
      tags,
      body: schemas.FieldsRequest,
      response: schemas.FieldsResponse,
    },
    async (input, ctx) => ({
      templateMap: await metadata.templateMap(deps, ctx.orgUuid),
      userFieldValueMap: await metadata.userFieldMap(deps, ctx.orgUuid, input.userUuid),
    }),
  );
  operation(
    app,
    {
      path: '/api/user/metadata/deleteUserMetadataField',
      operationId: 'deleteUserMetadataField',
      summary: "Delete a user's value of a custom field",
      tags,
      body: schemas.DeleteFieldRequest,
      response: schemas.DeleteFieldResponse,
    },
    async (input, ctx) => ({ field: await metadata.deleteField(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/user/updateRhombusKeySettingsForUser',
      operationId: 'updateRhombusKeySettingsForUser',
      summary: "Change a user's Rhombus Key settings (kept and answered)",
      tags,
      body: schemas.RhombusKeySettingsRequest,
      response: schemas.RhombusKeySettingsResponse,
    },
    async (input, ctx) => ({ userRhombusKeyConfig: await updateRhombusKey(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/user/getPartnerUsersInOrg',
      operationId: 'getPartnerUsersInOrg',
      summary: "The partner organization's users, their partner groups and notification settings",
      tags,
      body: schemas.GetPartnerUsersRequest,
      response: schemas.GetPartnerUsersResponse,
      access: 'partner',
    },
    async (_input, ctx) => listPartnerUsers(deps, ctx),
  );
  operation(
    app,
    {
      path: '/api/user/updatePartnerUser',
      operationId: 'updatePartnerUser',
      summary: 'Change a partner user: name, partner permission group, sign-in flags, notification settings',
      description: "The group must be one the caller's partner group may assign; refused when the partner would be left without a partner administrator.",
      tags,
      body: schemas.UpdatePartnerUserRequest,
      response: schemas.UserExtrasEnvelope,
      access: 'partner',
      permission: { functionality: 'USER_ADMINISTRATION' },
    },
    async (input, ctx) => (await updatePartnerUser(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/user/updatePartnerUserNotificationSettings',
      operationId: 'updatePartnerUserNotificationSettings',
      summary: "Change a partner user's notification settings for the partner's clients",
      tags,
      body: schemas.UpdatePartnerUserNotificationsRequest,
      response: schemas.UserExtrasEnvelope,
      access: 'partner',
      permission: { functionality: 'USER_ADMINISTRATION' },
    },
    async (input, ctx) => (await updatePartnerUser(deps, ctx, { userUuid: input.userUuid ?? ctx.userUuid ?? '', notificationSettingsV2: input }), {}),
  );
}
