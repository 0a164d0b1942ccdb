import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { ResponseOf } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as doorbells from './service.js';

/** Doorbell cameras' rules: general rules whose trigger is the camera's press (issue 19). */
export function doorbellRuleRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Doorbell Camera'];
  operation(
    app,
    {
      path: '/api/doorbellcamera/createRuleForDoorbellCamera',
      operationId: 'createRuleForDoorbellCamera',
      summary: "Creates a rule that fires on a doorbell camera's press",
      tags,
      body: s.CreateRuleForDoorbellCameraRequest,
      response: s.CreateRuleForDoorbellCameraResponse,
    },
    async (input, ctx) => ({ ruleUuid: await doorbells.createRuleForDoorbellCamera(deps, ctx, input.rule) }),
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/deleteRuleForDoorbellCamera',
      operationId: 'deleteRuleForDoorbellCamera',
      summary: "Deletes a doorbell camera's rule",
      tags,
      body: s.DeleteRuleForDoorbellCameraRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await doorbells.deleteRuleForDoorbellCamera(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/getRulesForDoorbellCamera',
      operationId: 'getRulesForDoorbellCamera',
      summary: "A doorbell camera's rules",
      tags,
      body: s.GetRulesForDoorbellCameraRequest,
      response: s.GetRulesForDoorbellCameraResponse,
    },
    async (input, ctx) => ({ rules: await doorbells.getRulesForDoorbellCamera(deps, ctx, input.doorbellCameraUuid) }),
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/getDoorbellCameraRulesForOrg',
      operationId: 'getDoorbellCameraRulesForOrg',
      summary: "Every doorbell camera's rules, by camera",
      tags,
      body: s.GetDoorbellCameraRulesForOrgRequest,
      response: s.GetDoorbellCameraRulesForOrgResponse,
    },
    async (_input, ctx) => ({ doorbellCameraUuidToRulesMap: await doorbells.getDoorbellCameraRulesForOrg(deps, ctx) }),
  );
}
