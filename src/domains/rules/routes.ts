import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EmptyRequest } from '../../schemas/common.js';
import { getButtonPressEvents, getRuleFiringsForButton } from './evaluation.service.js';
import { startRelayOverrides } from './actions/relays.js';
import { listButtonStates } from './button-states.js';
import * as rules from './rules.service.js';
import * as s from './schemas.js';
import { getWebhookSigningSecret, rotateWebhookSigningSecret } from './webhook-secret.service.js';

const tags = ['Button'];

/** Button rules, presses and firings, and the organization's webhook signing secret. */
export function ruleRoutes(app: ApiApp, deps: Deps): void {
  // Relays driven for an override duration are turned back by this instance's timers, re-armed from the store on start.
  let overrides: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    overrides = await startRelayOverrides(deps);
  });
  app.addHook('onClose', async () => {
    await overrides?.stop();
  });
  operation(
    app,
    {
      path: '/api/button/getRulesForButton',
      operationId: 'getRulesForButton',
      summary: 'Get rules for button',
      description: 'The rules of a button; with sensorUuid null, every button rule of the organization. Secrets show masked.',
      tags,
      body: s.GetRulesForButtonRequest,
      response: s.GetRulesForButtonResponse,
    },
    async (input, ctx) => ({ rules: await rules.getRulesForButton(deps, ctx, input.sensorUuid ?? null) }),
  );
  operation(
    app,
    {
      path: '/api/button/createRuleForButton',
      operationId: 'createRuleForButton',
      summary: 'Create rule for button',
      description:
        "Every reference (schedules, doors, devices, locations) must be the caller organization's, every URL http(s). Passwords and client secrets are kept encrypted.",
      tags,
      body: s.CreateRuleForButtonRequest,
      response: s.CreateRuleForButtonResponse,
    },
    async (input, ctx) => ({ ruleUuid: await rules.createRuleForButton(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/button/deleteRuleForButton',
      operationId: 'deleteRuleForButton',
      summary: 'Delete rule for button',
      tags,
      body: s.DeleteRuleForButtonRequest,
      response: s.DeleteRuleForButtonResponse,
    },
    async (input, ctx) => (await rules.deleteRuleForButton(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/button/getButtonRulesForOrg',
      operationId: 'getButtonRulesForOrg',
      summary: 'Get button rules for organization',
      tags,
      body: s.GetButtonRulesForOrgRequest,
      response: s.GetButtonRulesForOrgResponse,
    },
    async (_input, ctx) => ({ buttonUuidToRulesMap: await rules.getButtonRulesForOrg(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/button/getButtonPressEventsForSensor',
      operationId: 'getButtonPressEventsForSensor',
      summary: 'Get button press events for sensor',
      description: 'Presses newest first, between createdAfterMs and createdBeforeMs (exclusive), at most limit.',
      tags,
      body: s.GetButtonPressEventsForSensorRequest,
      response: s.GetButtonPressEventsForSensorResponse,
    },
    async (input, ctx) => ({ events: await getButtonPressEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/button/getMinimalButtonStateList',
      operationId: 'getMinimalButtonStateList',
      summary: 'Get minimal button state list',
      tags,
      body: EmptyRequest,
      response: s.GetMinimalButtonStateListResponse,
    },
    async (_input, ctx) => ({ states: await listButtonStates(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/button/getRuleFiringsForButton',
      operationId: 'getRuleFiringsForButton',
      extension: true,
      summary: 'Get rule firings for button (Gatehouse)',
      description: "The firings of the button's rules, newest first, each with the outcome of every action.",
      tags,
      body: s.GetRuleFiringsForButtonRequest,
      response: s.GetRuleFiringsForButtonResponse,
    },
    async (input, ctx) => ({ firings: await getRuleFiringsForButton(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/button/getWebhookSigningSecret',
      operationId: 'getWebhookSigningSecret',
      extension: true,
      summary: 'Get webhook signing secret (Gatehouse)',
      description: "The Standard Webhooks secret (whsec_...) that signs the organization's rule webhooks; created on first use.",
      tags,
      body: EmptyRequest,
      response: s.WebhookSigningSecretResponse,
    },
    async (_input, ctx) => ({ secret: await getWebhookSigningSecret(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/button/rotateWebhookSigningSecret',
      operationId: 'rotateWebhookSigningSecret',
      extension: true,
      summary: 'Rotate webhook signing secret (Gatehouse)',
      description: 'Replaces the signing secret; answers the new one. Deliveries signed from now on use it.',
      tags,
      body: EmptyRequest,
      response: s.WebhookSigningSecretResponse,
    },
    async (_input, ctx) => ({ secret: await rotateWebhookSigningSecret(deps, ctx) }),
  );
}
