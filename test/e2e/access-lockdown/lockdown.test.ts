import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { control } from '../control/admin.js';
import { recordChanges, eventsOf, FOREIGN, ok, waitFor, type LockdownSite, lockdownSuite } from './fixtures.js';

const base = '/api/accesscontrol/lockdownPlan';
const BUTTON = `
sensors: [{name: Panic Button, kind: button, location: HQ}]
`;

forEachDialect('/api/accesscontrol/lockdownPlan: lockdown plans, activation, states, events, test mode and rules', (dialect) => {
  const t = lockdownSuite<LockdownSite & { sensors: Record<string, string> }>(dialect, BUTTON);
  const { call, fails } = t;
  const doorState = async (door: string) =>
    (await call('/api/component/findAccessControlledDoorShadows', { maxPageSize: 1000 })).shadows.find((s: any) => s.componentCompositeUuid === door).state;
  const relayOf = async (door: string) =>
    (await call('/api/component/findAccessControlledDoors', { maxPageSize: 1000 })).accessControlledDoors.find((d: any) => d.uuid === door);

  describe('plans', () => {
    it('creates a plan (announced on the stream), reads it back alone, in the list and by location', async () => {
      const { result, changes } = await recordChanges(t.server, () =>
        call(`${base}/createLocationLockdownPlan`, {
          lockdownPlan: {
            name: 'Evacuation',
            locationUuid: t.site.locations.HQ,
            defaultLockdownState: 'UNLOCKED',
            physicalAccess: { userUuids: [t.site.users.Bob] },
            description: 'Everyone out through the unlocked doors',
          },
        }),
      );
      const plan = result.lockdownPlan;
      assert.deepEqual(
        [
          plan.name,
          plan.description,
          plan.active,
          plan.type,
          plan.locationUuid,
          plan.scopeUuid,
          plan.defaultLockdownState,
          plan.physicalAccess.userUuids,
          plan.testPlan,
        ],
        [
          'Evacuation',
          'Everyone out through the unlocked doors',
          false,
          'LOCATION_LOCKDOWN',
          t.site.locations.HQ,
          t.site.locations.HQ,
          'UNLOCKED',
          [t.site.users.Bob],
          { doorStateOverrideEnabled: false, userAccessOverrideEnabled: false },
        ],
      );
      assert.ok(changes.some((c) => c.entity === 'LOCKDOWN_PLAN' && c.type === 'CREATE' && c.entityUuid === plan.uuid));
      assert.deepEqual((await call(`${base}/getLockdownPlan`, { lockdownPlanUuid: plan.uuid })).lockdownPlan, plan);
      assert.deepEqual(
        (await call(`${base}/findLockdownPlans`)).lockdownPlans.map((p: any) => p.name),
        ['Drill', 'Evacuation', 'Standard'],
      );
      assert.deepEqual((await call(`${base}/findLockdownPlansByLocation`, { locationUuid: t.site.locations.Annex })).lockdownPlans, []);
      assert.equal((await call(`${base}/findLockdownPlansByLocation`, { locationUuid: t.site.locations.HQ })).lockdownPlans.length, 3);
    });

    it('updates the fields given, and deletes a plan', async () => {
      const { lockdownPlan } = await call(`${base}/createLocationLockdownPlan`, { lockdownPlan: { name: 'Temp', locationUuid: t.site.locations.HQ } });
      const updated = (
        await call(`${base}/updateLocationLockdownPlan`, { lockdownPlanUuid: lockdownPlan.uuid, name: 'Renamed', testPlan: { doorStateOverrideEnabled: true } })
      ).lockdownPlan;
      assert.deepEqual([updated.name, updated.testPlan.doorStateOverrideEnabled, updated.createdAtMillis], ['Renamed', true, lockdownPlan.createdAtMillis]);
      const { result, changes } = await recordChanges(t.server, () => call(`${base}/deleteLockdownPlan`, { lockdownPlanUuid: lockdownPlan.uuid }));
      assert.deepEqual([result.lockdownPlanUuid, result.orgUuid], [lockdownPlan.uuid, t.org.orgUuid]);
      assert.ok(changes.some((c) => c.entity === 'LOCKDOWN_PLAN' && c.type === 'DELETE'));
      assert.equal(await fails(`${base}/getLockdownPlan`, { lockdownPlanUuid: lockdownPlan.uuid }), `Lockdown plan ${lockdownPlan.uuid} not found`);
    });

    it('refuses a door of another location, an unknown location and a user of another organization', async () => {
      const plan = (doorLockdownStateMap: object, extra: object = {}) => ({
        lockdownPlan: { name: 'Bad', locationUuid: t.site.locations.HQ, doorLockdownStateMap, ...extra },
      });
      assert.match(await fails(`${base}/createLocationLockdownPlan`, plan({ [t.site.doors['Annex Door']]: 'UNLOCKED' })), /is not at the plan's location/);
      assert.match(await fails(`${base}/createLocationLockdownPlan`, plan({ [t.otherSite.doors['Front Door']]: 'UNLOCKED' })), /door .* not found/);
      assert.equal(
        await fails(`${base}/createLocationLockdownPlan`, { lockdownPlan: { name: 'X', locationUuid: t.otherSite.locations.HQ } }),
        'Location not found',
      );
      assert.match(
        await fails(`${base}/createLocationLockdownPlan`, plan({}, { physicalAccess: { userUuids: [t.otherSite.users.Ada] } })),
        /^lockdownPlan\.physicalAccess\.userUuids\[0\]: User .* not found$/,
      );
      const r = await t.server.call(`${base}/createLocationLockdownPlan`, plan({ [t.site.doors['Front Door']]: 'OPEN' }), { key: t.org.apiKey });
      assert.equal(r.status, 400);
    });

    it("answers another organization's plan and location as unknown ones, and changes nothing", async () => {
      const theirs = t.otherSite.lockdownPlans.Standard;
      for (const path of ['getLockdownPlan', 'deleteLockdownPlan'])
        assert.equal(await fails(`${base}/${path}`, { lockdownPlanUuid: theirs }), `Lockdown plan ${theirs} not found`);
      assert.equal(await fails(`${base}/updateLocationLockdownPlan`, { lockdownPlanUuid: theirs, name: 'Mine' }), `Lockdown plan ${theirs} not found`);
      assert.equal(await fails(`${base}/findLockdownPlansByLocation`, { locationUuid: t.otherSite.locations.HQ }), 'Location not found');
      assert.equal((await ok(t.server, t.other.apiKey, `${base}/getLockdownPlan`, { lockdownPlanUuid: theirs })).lockdownPlan.name, 'Standard');
    });
  });

  describe('activation and deactivation', () => {
    it('locks the doors at once (the plan holds the Stair Door unlocked), refuses remote unlocks, and restores every door when it ends', async () => {
      const vault = t.site.doors['Vault Door'];
      assert.equal((await call('/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: vault })).type, 'SUCCESS');
      const { result, changes } = await recordChanges(t.server, () =>
        call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, lockdownPlanUuids: [t.site.lockdownPlans.Standard] }),
      );
      assert.equal(result.result, 'SUCCESS');
      const activePlans = async () =>
        (await call(`${base}/findLockdownPlansByLocation`, { locationUuid: t.site.locations.HQ })).lockdownPlans
          .filter((p: any) => p.active)
          .map((p: any) => p.uuid);
      assert.deepEqual(await activePlans(), [t.site.lockdownPlans.Standard], 'the plan in force says so (the MCP server reads active)');
      assert.deepEqual(
        [result.state.state, result.state.activeLockdownPlans, result.state.followingTestPlan],
        ['LOCKED_DOWN', [{ lockdownPlanUuid: t.site.lockdownPlans.Standard, scope: 'LOCATION_LOCKDOWN', scopeUuid: t.site.locations.HQ }], false],
      );
      assert.ok(changes.some((c) => c.entity === 'LOCATION_LOCKDOWN' && c.update && (c.update as any).state === 'LOCKED_DOWN'));
      assert.ok(changes.some((c) => c.entity === 'LOCATION_LOCKDOWN_EVENT'));
      const doorChanges = changes.filter((c) => c.entity === 'DOOR').map((c) => [c.entityUuid, (c.update as any).lockState]);
      assert.deepEqual(
        doorChanges.filter(([d]) => d === vault || d === t.site.doors['Stair Door']).sort(),
        [
          [t.site.doors['Stair Door'], 'UNLOCKED'],
          [vault, 'LOCKED'],
        ].sort(),
        'every changed door is on the stream',
      );
      assert.deepEqual(
        (await eventsOf(t.server, t.org.apiKey, vault, ['DoorRelayStateChangeEvent'])).map((e) => e.newState),
        ['LOCKED', 'UNLOCKED'],
      );
      assert.deepEqual(
        (await eventsOf(t.server, t.org.apiKey, vault, ['DoorLocationLockdownStateEvent'])).map((e) => [
          e.state,
          'newState' in e,
          'activeDoorLockdownState' in e,
        ]),
        [['LOCKED_DOWN', false, false]],
      );
      const stair = await doorState(t.site.doors['Stair Door']);
      assert.deepEqual([stair.state, stair.source], ['UNLOCKED', 'LOCKDOWN']);
      const unlock = await t.server.call('/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: vault }, { key: t.org.apiKey });
      assert.deepEqual([unlock.json.error, unlock.json.type], [true, 'ERROR']);
      assert.match(unlock.json.errorMsg, /locked down/);
      assert.equal(
        (await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, lockdownPlanUuids: [t.site.lockdownPlans.Standard] })).result,
        'SUCCESS',
        'again: no change',
      );

      const ended = await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.HQ });
      assert.deepEqual([ended.result, ended.state.state, ended.state.activeLockdownPlans], ['SUCCESS', 'STANDARD_SECURITY', []]);
      assert.deepEqual(await activePlans(), []);
      assert.equal((await relayOf(vault)).lockState, 'UNLOCKED', "the vault's ten-minute unlock resumes");
      assert.equal((await relayOf(t.site.doors['Stair Door'])).lockState, 'LOCKED');
      assert.equal((await doorState(t.site.doors['Stair Door'])).source, 'DEFAULT_STATE');
      const events = (await call(`${base}/findLocationLockdownEvents`, { locationUuid: t.site.locations.HQ })).events;
      assert.deepEqual(
        events.slice(0, 2).map((e: any) => [e.type, e.originator.type, e.lockdownPlanUuids]),
        [
          ['LOCKDOWN_DEACTIVATED', 'API_TOKEN', [t.site.lockdownPlans.Standard]],
          ['LOCKDOWN_ACTIVATED', 'API_TOKEN', [t.site.lockdownPlans.Standard]],
        ],
      );
      assert.deepEqual((await call(`${base}/findLocationLockdownEvents`, { locationUuid: t.site.locations.HQ, limit: 1 })).events.length, 1);
      assert.deepEqual(
        (await call(`${base}/findLocationLockdownEvents`, { locationUuid: t.site.locations.HQ, createdBeforeMs: events.at(-1).createdAtMillis })).events,
        [],
      );
    });

    it('refuses plans of another location or organization, and a stale state (optimistic concurrency), changing nothing', async () => {
      const state = (await call(`${base}/getOrCreateLocationLockdownState`, { locationUuid: t.site.locations.HQ })).state;
      for (const plans of [[t.otherSite.lockdownPlans.Standard], [FOREIGN]]) {
        const r = await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, lockdownPlanUuids: plans });
        assert.deepEqual([r.result, r.state.state], ['INVALID_LOCKDOWN_PLANS', 'STANDARD_SECURITY']);
      }
      const stale = await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, stateUpdatedAtMillis: state.updatedAtMillis - 1 });
      assert.deepEqual([stale.result, stale.state.state], ['OPTIMISTIC_CONCURRENCY', 'STANDARD_SECURITY']);
      assert.equal(await fails(`${base}/activateLockdownForLocation`, { locationUuid: t.otherSite.locations.HQ }), 'Location not found');
      assert.equal(
        (await ok(t.server, t.other.apiKey, `${base}/getOrCreateLocationLockdownState`, { locationUuid: t.otherSite.locations.HQ })).state.state,
        'STANDARD_SECURITY',
      );
    });

    it('activates every plan of the location when none is named, then deactivation with a stale state is refused', async () => {
      const r = await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.Annex });
      assert.deepEqual(
        [r.result, r.state.activeLockdownPlans.map((p: any) => p.lockdownPlanUuid)],
        ['SUCCESS', [null]],
        'Annex has no plan: a plan-less lockdown',
      );
      assert.equal((await relayOf(t.site.doors['Annex Door'])).lockState, 'LOCKED');
      const stale = await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.Annex, stateUpdatedAtMillis: 1 });
      assert.equal(stale.result, 'OPTIMISTIC_CONCURRENCY');
      assert.deepEqual(
        (await call(`${base}/findLocationLockdownStates`, { stateFilter: ['LOCKED_DOWN'] })).states.map((s: any) => s.locationUuid),
        [t.site.locations.Annex],
      );
      assert.match(await fails(`${base}/deleteLocationLockdownState`, { locationUuid: t.site.locations.Annex }), /locked down/);
      await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.Annex, stateUpdatedAtMillis: r.state.updatedAtMillis });
      assert.deepEqual(await call(`${base}/deleteLocationLockdownState`, { locationUuid: t.site.locations.Annex }), { error: false });
      assert.deepEqual(
        (await call(`${base}/findLocationLockdownStates`)).states.map((s: any) => s.locationUuid),
        [t.site.locations.HQ],
        'Annex is no longer tracked',
      );
    });

    it('in test mode records the lockdown without locking doors or refusing users', async () => {
      const enabled = (await call(`${base}/enableLockdownTestModeForLocation`, { locationUuid: t.site.locations.HQ })).state;
      assert.equal(enabled.followingTestPlan, true);
      const before = (await relayOf(t.site.doors['Vault Door'])).lockState;
      const r = await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, lockdownPlanUuids: [t.site.lockdownPlans.Drill] });
      assert.deepEqual([r.state.state, r.state.followingTestPlan], ['LOCKED_DOWN', true]);
      assert.equal((await relayOf(t.site.doors['Vault Door'])).lockState, before, 'the test plan does not override doors');
      const unlock = await call('/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: t.site.doors['Front Door'] });
      assert.equal(unlock.type, 'SUCCESS');
      assert.equal((await call(`${base}/findLocationLockdownEvents`, { locationUuid: t.site.locations.HQ, limit: 1 })).events[0].followingTestPlan, true);
      await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.HQ });
      assert.equal((await call(`${base}/disableLockdownTestModeForLocation`, { locationUuid: t.site.locations.HQ })).state.followingTestPlan, false);
      assert.equal(await fails(`${base}/enableLockdownTestModeForLocation`, { locationUuid: t.otherSite.locations.HQ }), 'Location not found');
    });

    it('refuses to delete a plan while it is active', async () => {
      await call(`${base}/activateLockdownForLocation`, { locationUuid: t.site.locations.HQ, lockdownPlanUuids: [t.site.lockdownPlans.Standard] });
      assert.match(await fails(`${base}/deleteLockdownPlan`, { lockdownPlanUuid: t.site.lockdownPlans.Standard }), /is active/);
      await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.HQ });
    });
  });

  describe('rules', () => {
    it('creates a rule that a button press at the location fires, reads it back, and deletes it', async () => {
      const rule = {
        ruleName: 'Panic',
        locationUuid: t.site.locations.HQ,
        triggerActivity: 'BUTTON_LONG_PRESSED',
        action: { activateLocationLockdown: { locationLockdownPlanUuid: t.site.lockdownPlans.Standard } },
      };
      const { ruleUuid } = await call(`${base}/createLockdownRuleForLocation`, { rule });
      const rules = (await call(`${base}/getLockdownRulesForLocation`, { locationUuid: t.site.locations.HQ })).rules;
      assert.deepEqual(rules, [
        {
          ...rule,
          ruleUuid,
          ruleFilters: { scheduleUuids: [], triggerBackoffSecs: 0 },
          action: { activateLocationLockdown: { locationLockdownPlanUuid: t.site.lockdownPlans.Standard, locationUuid: t.site.locations.HQ } },
        },
      ]);
      const press = (kind: string) => control(t.server, '/simulate/press', { button: t.site.sensors['Panic Button'], press: kind });
      await press('SINGLE');
      await press('LONG');
      await waitFor(
        'the rule to lock HQ down',
        async () => (await call(`${base}/findLocationLockdownStates`, { stateFilter: ['LOCKED_DOWN'] })).states.length === 1,
      );
      const last = (await call(`${base}/findLocationLockdownEvents`, { locationUuid: t.site.locations.HQ, limit: 1 })).events[0];
      assert.deepEqual([last.type, last.originator.type], ['LOCKDOWN_ACTIVATED', 'RULE']);
      await call(`${base}/deactivateLockdownForLocation`, { locationUuid: t.site.locations.HQ });
      const renamed = await call(`${base}/createLockdownRuleForLocation`, { rule: { ...rule, ruleUuid, ruleName: 'Renamed' } });
      assert.equal(renamed.ruleUuid, ruleUuid, 'a ruleUuid updates the rule');
      assert.equal((await call(`${base}/getLockdownRulesForLocation`, { locationUuid: t.site.locations.HQ })).rules[0].ruleName, 'Renamed');
      assert.equal(
        await fails(`${base}/deleteLockdownRuleForLocation`, { locationUuid: t.site.locations.Annex, ruleUuid }),
        `Lockdown rule ${ruleUuid} of the location not found`,
      );
      assert.deepEqual(await call(`${base}/deleteLockdownRuleForLocation`, { locationUuid: t.site.locations.HQ, ruleUuid }), { error: false });
      assert.deepEqual((await call(`${base}/getLockdownRulesForLocation`, { locationUuid: t.site.locations.HQ })).rules, []);
    });

    it("refuses a plan of another location or organization, and answers another organization's ids as unknown", async () => {
      const rule = (plan: string, locationUuid = t.site.locations.HQ) => ({
        rule: { locationUuid, triggerActivity: 'AC_BADGE_UNAUTHORIZED', action: { activateLocationLockdown: { locationLockdownPlanUuid: plan } } },
      });
      assert.match(await fails(`${base}/createLockdownRuleForLocation`, rule(t.otherSite.lockdownPlans.Standard)), /Lockdown plan .* not found/);
      assert.match(
        await fails(`${base}/createLockdownRuleForLocation`, rule(t.site.lockdownPlans.Standard, t.site.locations.Annex)),
        /Lockdown plan .* not found/,
      );
      assert.equal(await fails(`${base}/getLockdownRulesForLocation`, { locationUuid: t.otherSite.locations.HQ }), 'Location not found');
      assert.equal(
        (await t.server.call(`${base}/createLockdownRuleForLocation`, { rule: { ...rule(FOREIGN).rule, triggerActivity: 'MOTION' } }, { key: t.org.apiKey }))
          .status,
        400,
      );
    });
  });
});
