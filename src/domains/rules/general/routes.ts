import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as rules from './service.js';
import * as records from '../rule-records.service.js';

const tags = ['Rules'];

/** The general rule engine (rules on device activity, their pauses) and the records of rule firings. */
export function generalRuleRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/rules/createRule',
      operationId: 'createRule',
      summary: 'Create a rule',
      description: 'A rule on device activity (DEVICE_ACTIVITY_EVENT triggers: policy alerts and door events) running the button rules’ actions.',
      tags,
      body: s.CreateRuleRequest,
      response: s.CreateRuleResponse,
    },
    async (input, ctx) => ({ ruleUuid: await rules.createRule(deps, ctx, input.rule) }),
  );
  operation(
    app,
    { path: '/api/rules/updateRule', operationId: 'updateRule', summary: 'Update a rule', tags, body: s.UpdateRuleRequest, response: s.RuleEnvelope },
    async (input, ctx) => {
      await rules.updateRule(deps, ctx, input.ruleUpdate);
      return {};
    },
  );
  operation(
    app,
    { path: '/api/rules/deleteRule', operationId: 'deleteRule', summary: 'Delete a rule', tags, body: s.DeleteRuleRequest, response: s.RuleEnvelope },
    async (input, ctx) => {
      await rules.deleteRule(deps, ctx, input.ruleUuid);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/rules/getRulesForOrg',
      operationId: 'getRulesForOrg',
      summary: "The organization's rules",
      tags,
      body: s.GetRulesForOrgRequest,
      response: s.GetRulesResponse,
    },
    async (_input, ctx) => ({ rules: await rules.getRulesForOrg(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/rules/getRulesFiltered',
      operationId: 'getRulesFiltered',
      summary: 'Rules by type and associated uuid',
      description: 'associatedUuids: the rule’s uuid, or a device, door or location its triggers name.',
      tags,
      body: s.GetRulesFilteredRequest,
      response: s.GetRulesResponse,
    },
    async (input, ctx) => ({ rules: await rules.getRulesFiltered(deps, ctx, input) }),
  );
  operation(
    app,
    { path: '/api/rules/pauseRule', operationId: 'pauseRule', summary: 'Pause a rule', tags, body: s.PauseRuleRequest, response: s.RuleEnvelope },
    async (input, ctx) => {
      await rules.pauseRule(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/rules/getRulePauseSettings',
      operationId: 'getRulePauseSettings',
      summary: 'The pauses of rules not yet over',
      tags,
      body: s.GetRulePauseSettingsRequest,
      response: s.GetRulePauseSettingsResponse,
    },
    async (_input, ctx) => ({ rulesPausedMap: await rules.getRulePauseSettings(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/rules/deleteRulePauseSetting',
      operationId: 'deleteRulePauseSetting',
      summary: 'End a pause of a rule',
      tags,
      body: s.DeleteRulePauseSettingRequest,
      response: s.RuleEnvelope,
    },
    async (input, ctx) => {
      await rules.deleteRulePauseSetting(deps, ctx, input.uuid);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/rulesRecords/getRulesEventRecords',
      operationId: 'getRulesEventRecords',
      summary: 'Records of rule firings',
      description: 'Newest first (at most 1000), of the rules or devices named; startTime inclusive, endTime exclusive (epoch ms).',
      tags,
      body: s.GetRulesEventRecordsRequest,
      response: s.RulesEventRecordsResponse,
    },
    async (input, ctx) => ({ rulesEventRecords: await records.getRulesEventRecords(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/rulesRecords/getLatestRulesEventRecords',
      operationId: 'getLatestRulesEventRecords',
      summary: 'The latest records of rule firings',
      tags,
      body: s.GetLatestRulesEventRecordsRequest,
      response: s.RulesEventRecordsResponse,
    },
    async (input, ctx) => ({ rulesEventRecords: await records.getLatestRulesEventRecords(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/rulesRecords/deleteRulesEventRecord',
      operationId: 'deleteRulesEventRecord',
      summary: 'Delete a record of a rule firing',
      tags,
      body: s.DeleteRulesEventRecordRequest,
      response: s.RuleEnvelope,
    },
    async (input, ctx) => {
      await records.deleteRulesEventRecord(deps, ctx, input.uuid);
      return {};
    },
  );
}
