import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import { registerDiscoveredReader, updateDoorControllerDetails } from './service.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as r from './rules.schemas.js';
import * as rules from './rules.service.js';

const TAGS = ['DoorController'];

/** Door controllers: their details, and the readers they discover. */
export function doorControllerRoutes(app: ApiApp, deps: Deps): void {
  doorControllerRuleRoutes(app, deps);
  operation(
    app,
    {
      path: '/api/doorcontroller/updateDetails',
      operationId: 'updateDoorControllerDetails',
      summary: 'Update the details of a door controller',
      tags: TAGS,
      body: s.UpdateDoorControllerDetailsRequest,
      response: s.UpdateDoorControllerDetailsResponse,
    },
    async (input, ctx) => (await updateDoorControllerDetails(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/doorcontroller/registerDiscoveredRhombusReader',
      operationId: 'registerDiscoveredRhombusReader',
      summary: 'Register a reader that a door controller has discovered',
      tags: TAGS,
      body: s.RegisterDiscoveredReaderRequest,
      response: s.RegisterDiscoveredReaderResponse,
    },
    async (input, ctx) => (await registerDiscoveredReader(deps, ctx, input), {}),
  );
}

/** A door controller's own rules (the platform's newer public spec, which its MCP calls). */
function doorControllerRuleRoutes(app: ApiApp, deps: Deps): void {
  const common = { tags: TAGS, platformSource: 'newer' as const };
  operation(
    app,
    {
      ...common,
      path: '/api/doorcontroller/createDoorControllerRule',
      operationId: 'createDoorControllerRule',
      summary: 'Adds a rule to a door controller; fields beyond name, enabled and ruleType are kept in settings',
      body: r.CreateDoorControllerRuleRequest,
      response: r.DoorControllerRuleResponse,
    },
    async (input, ctx) => ({ rule: await rules.createRule(deps, ctx, input.doorControllerUuid, input.rule as r.RuleInput) }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/doorcontroller/getDoorControllerRule',
      operationId: 'getDoorControllerRule',
      summary: 'One rule of a door controller',
      body: r.DoorControllerRuleRequest,
      response: r.DoorControllerRuleResponse,
    },
    async (input, ctx) => ({ rule: await rules.getRule(deps, ctx, input.doorControllerUuid, input.ruleUuid) }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/doorcontroller/getDoorControllerRules',
      operationId: 'getDoorControllerRules',
      summary: "A door controller's rules, oldest first",
      body: r.GetDoorControllerRulesRequest,
      response: r.DoorControllerRulesResponse,
    },
    async (input, ctx) => ({ rules: await rules.listRules(deps, ctx, input.doorControllerUuid) }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/doorcontroller/updateDoorControllerRule',
      operationId: 'updateDoorControllerRule',
      summary: "Replaces a door controller rule's name, type and settings (enabled is kept when not given)",
      body: r.UpdateDoorControllerRuleRequest,
      response: r.DoorControllerRuleResponse,
    },
    async (input, ctx) => ({ rule: await rules.updateRule(deps, ctx, input.doorControllerUuid, input.rule as r.RuleInput & { uuid: string }) }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/doorcontroller/deleteDoorControllerRule',
      operationId: 'deleteDoorControllerRule',
      summary: 'Deletes a rule of a door controller',
      body: r.DoorControllerRuleRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      await rules.deleteRule(deps, ctx, input.doorControllerUuid, input.ruleUuid);
      return {};
    },
  );
}
