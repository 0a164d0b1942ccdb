import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { createPlan, deletePlan, findPlans, lockdownPlans, planAnswer, planAnswers, updatePlan } from './lockdown-plans.js';
import { deleteLockdownRule, lockdownRulesOf, saveLockdownRule } from './lockdown-rules.js';
import * as s from './schemas.js';
import { findEvents, findStates, lockdownWrites } from './service.js';

const tags = ['Lockdown Plan'];
const base = '/api/accesscontrol/lockdownPlan';

/** Lockdown plans, lockdown states and events of locations, test mode, and lockdown rules. */
export function lockdownRoutes(app: ApiApp, deps: Deps): void {
  // ---- Plans ----
  operation(
    app,
    {
      path: `${base}/createLocationLockdownPlan`,
      operationId: 'createLocationLockdownPlan',
      summary: 'Create a location lockdown plan',
      description: "Doors of the plan's map take their state while it is active (others its defaultLockdownState, else LOCKED_DOWN).",
      tags,
      body: s.CreateLocationLockdownPlanRequest,
      response: s.CreateLocationLockdownPlanResponse,
    },
    async (input, ctx) => ({ lockdownPlan: await planAnswer(deps, ctx.orgUuid, await createPlan(deps, ctx, input.lockdownPlan)) }),
  );
  operation(
    app,
    {
      path: `${base}/updateLocationLockdownPlan`,
      operationId: 'updateLocationLockdownPlan',
      summary: 'Update a location lockdown plan (the fields given)',
      tags,
      body: s.UpdateLocationLockdownPlanRequest,
      response: s.UpdateLocationLockdownPlanResponse,
    },
    async (input, ctx) => ({ lockdownPlan: await planAnswer(deps, ctx.orgUuid, await updatePlan(deps, ctx, input)) }),
  );
  operation(
    app,
    {
      path: `${base}/getLockdownPlan`,
      operationId: 'getLockdownPlan',
      summary: 'Get a lockdown plan',
      tags,
      body: s.LockdownPlanUuidRequest,
      response: s.GetLockdownPlanResponse,
    },
    async (input, ctx) => ({ lockdownPlan: await planAnswer(deps, ctx.orgUuid, await lockdownPlans.get(deps, ctx.orgUuid, input.lockdownPlanUuid)) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteLockdownPlan`,
      operationId: 'deleteLockdownPlan',
      summary: 'Delete a lockdown plan (refused while it is active)',
      tags,
      body: s.LockdownPlanUuidRequest,
      response: s.DeleteLockdownPlanResponse,
    },
    async (input, ctx) => ({ lockdownPlanUuid: (await deletePlan(deps, ctx, input.lockdownPlanUuid)).uuid, orgUuid: ctx.orgUuid }),
  );
  operation(
    app,
    {
      path: `${base}/findLockdownPlans`,
      operationId: 'findLockdownPlans',
      summary: 'Find the lockdown plans of the organization',
      tags,
      body: s.FindLockdownPlansRequest,
      response: s.FindLockdownPlansResponse,
    },
    async (_input, ctx) => ({ lockdownPlans: await planAnswers(deps, ctx.orgUuid, await findPlans(deps, ctx, {})) }),
  );
  operation(
    app,
    {
      path: `${base}/findLockdownPlansByLocation`,
      operationId: 'findLockdownPlansByLocation',
      summary: 'Find the lockdown plans of a location',
      tags,
      body: s.FindLockdownPlansByLocationRequest,
      response: s.FindLockdownPlansByLocationResponse,
    },
    async (input, ctx) => ({ lockdownPlans: await planAnswers(deps, ctx.orgUuid, await findPlans(deps, ctx, input)) }),
  );

  // ---- Activation, states, events ----
  operation(
    app,
    {
      path: `${base}/activateLockdownForLocation`,
      operationId: 'activateLockdownForLocation',
      summary: 'Activate a lockdown at a location',
      description:
        "No plans given: every plan of the location (none: every door LOCKED_DOWN). Doors lock (or hold unlocked, as the plans say), remote unlocks answer ERROR and badge-ins are refused with authDecisionSource LOCKDOWN but for the plans' physicalAccess users; in test mode only what the plans' testPlan enables.",
      tags,
      body: s.ActivateLockdownForLocationRequest,
      response: s.ActivateLockdownForLocationResponse,
    },
    async (input, ctx) => lockdownWrites.activate(deps, ctx, input),
  );
  operation(
    app,
    {
      path: `${base}/deactivateLockdownForLocation`,
      operationId: 'deactivateLockdownForLocation',
      summary: "Deactivate a location's lockdown: each door gets back its previous state",
      tags,
      body: s.DeactivateLockdownForLocationRequest,
      response: s.DeactivateLockdownForLocationResponse,
    },
    async (input, ctx) => lockdownWrites.deactivate(deps, ctx, input),
  );
  for (const [name, on] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    operation(
      app,
      {
        path: `${base}/${name}LockdownTestModeForLocation`,
        operationId: `${name}LockdownTestModeForLocation`,
        summary: `${name === 'enable' ? 'Enable' : 'Disable'} lockdown test mode at a location`,
        description: "In test mode an activation records its events but overrides only what the plans' testPlan enables.",
        tags,
        body: s.LocationLockdownRequest,
        response: s.LocationLockdownStateResponse,
      },
      async (input, ctx) => ({ state: await lockdownWrites.testMode(deps, ctx, input, on) }),
    );
  }
  operation(
    app,
    {
      path: `${base}/getOrCreateLocationLockdownState`,
      operationId: 'getOrCreateLocationLockdownState',
      summary: "Get a location's lockdown state, tracking it from now on",
      tags,
      body: s.LocationLockdownRequest,
      response: s.LocationLockdownStateResponse,
    },
    async (input, ctx) => ({ state: await lockdownWrites.getOrCreate(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteLocationLockdownState`,
      operationId: 'deleteLocationLockdownState',
      summary: "Stop tracking a location's lockdown state (refused while locked down)",
      tags,
      body: s.LocationLockdownRequest,
      response: s.DeleteLocationLockdownStateResponse,
    },
    async (input, ctx) => (await lockdownWrites.remove(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: `${base}/findLocationLockdownStates`,
      operationId: 'findLocationLockdownStates',
      summary: 'Find the tracked lockdown states of the organization',
      tags,
      body: s.FindLocationLockdownStatesRequest,
      response: s.FindLocationLockdownStatesResponse,
    },
    async (input, ctx) => ({ states: await findStates(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/findLocationLockdownEvents`,
      operationId: 'findLocationLockdownEvents',
      summary: "Find a location's lockdown events, newest first",
      tags,
      body: s.FindLocationLockdownEventsRequest,
      response: s.FindLocationLockdownEventsResponse,
    },
    async (input, ctx) => ({ events: await findEvents(deps, ctx, input) }),
  );

  // ---- Rules ----
  operation(
    app,
    {
      path: `${base}/createLockdownRuleForLocation`,
      operationId: 'createLockdownRuleForLocation',
      summary: 'Create (or, with ruleUuid, update) a lockdown rule of a location',
      description: 'The rule activates its plan when its triggerActivity happens at the location, inside its schedules and past its back-off.',
      tags,
      body: s.CreateLockdownRuleForLocationRequest,
      response: s.CreateLockdownRuleForLocationResponse,
    },
    async (input, ctx) => ({ ruleUuid: (await saveLockdownRule(deps, ctx, input.rule)).uuid }),
  );
  operation(
    app,
    {
      path: `${base}/getLockdownRulesForLocation`,
      operationId: 'getLockdownRulesForLocation',
      summary: 'Get the lockdown rules of a location',
      tags,
      body: s.GetLockdownRulesForLocationRequest,
      response: s.GetLockdownRulesForLocationResponse,
    },
    async (input, ctx) => ({ rules: await lockdownRulesOf(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteLockdownRuleForLocation`,
      operationId: 'deleteLockdownRuleForLocation',
      summary: 'Delete a lockdown rule of a location',
      tags,
      body: s.DeleteLockdownRuleForLocationRequest,
      response: s.DeleteLockdownRuleForLocationResponse,
    },
    async (input, ctx) => (await deleteLockdownRule(deps, ctx, input), {}),
  );
}
