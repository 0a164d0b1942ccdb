import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { newRuuid } from '../../../src/ids.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { waitFor } from '../../helpers/wait.js';
import { simulate } from '../access/fixtures.js';
import { changesDuring, createSiteOrg, type SiteOrg } from '../config/config-site.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'UTC' }],
  doorControllers: [{ name: 'Panel', location: 'HQ' }],
  sensors: [{ name: 'Front Bell', kind: 'doorbell', location: 'HQ' }],
};

/** An organization's site with its components: two inputs and a generic relay on the panel, a doorbell button on the camera. */
interface Org extends SiteOrg {
  inputA: string;
  inputB: string;
  relay: string;
  bellButton: string;
}

const port = (portNum: number, portType: string) => ({ boardNum: 0, portNum, portType });

forEachDialect('rules meet hardware components: input triggers, relay actions, component references', (dialect) => {
  const server = useTestServer(dialect);
  let mine: Org;
  let theirs: Org;
  const { ok, refused } = apiAs(server, () => mine.apiKey);
  const shadow = async (uuid: string) => (await ok('/api/component/findAllComponentShadows', { componentUuids: [uuid] })).acuComponentShadowMap[uuid];

  before(async () => {
    const org = async (name: string): Promise<Org> => {
      const seeded = await createSiteOrg(server(), name, SITE);
      const api = apiAs(server, seeded.apiKey, '/api/component');
      const make = async (op: string, owner: string, body: object) => (await api.ok(op, { ownerDeviceUuid: owner, ...body })).component.uuid as string;
      const panel = seeded.site.doorControllers.Panel;
      return {
        ...seeded,
        inputA: await make('createIntegratedGenericInput', panel, { port: port(1, 'GPIO_INPUT') }),
        inputB: await make('createIntegratedGenericInput', panel, { port: port(2, 'GPIO_INPUT') }),
        relay: await make('createIntegratedGenericRelay', panel, { steadyState: 'INACTIVE', port: port(3, 'GPIO_OUTPUT') }),
        bellButton: await make('createIntegratedGenericButton', seeded.site.sensors['Front Bell'], { mode: 'DOORBELL', port: port(1, 'BUTTON_INPUT') }),
      };
    };
    mine = await org('Mine');
    theirs = await org('Theirs');
  });

  const inputRule = (org: Org, componentUuids: string[]) => ({
    rule: {
      name: 'Input opens the gate',
      triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'AC_GI_ACTIVE' }, componentUuids }],
      ruleFilters: { triggerBackoffSecs: 0 },
      action: { alertAction: true, triggerComponentRelayActions: [{ componentUuid: org.relay, state: 'ACTIVE', overrideRelayDurationMs: 600_000 }] },
    },
  });
  let ruleUuid: string;

  it("an input's change fires the rule naming it, whose relay action drives the relay component (its shadow, announced)", async () => {
    ruleUuid = (await ok('/api/rules/createRule', inputRule(mine, [mine.inputA]))).ruleUuid;
    const records = async () => (await ok('/api/rulesRecords/getLatestRulesEventRecords', { ruleUuid })).rulesEventRecords as any[];
    // Another input, and the same input going inactive, fire nothing.
    await simulate(server(), 'component', { component: mine.inputB, state: 'ACTIVE' });
    await simulate(server(), 'component', { component: mine.inputA, state: 'INACTIVE' });
    const changes = await changesDuring(server(), async () => {
      const r = await simulate(server(), 'component', { component: mine.inputA, state: 'ACTIVE' });
      assert.equal(r.json.error, false, r.text);
      await waitFor('the firing', async () => ((await records()).some((x) => x.actionOutcomes?.length) ? true : null));
    });
    const [record, ...more] = await records();
    assert.deepEqual(more, [], 'only the named input, going active, fired the rule');
    assert.deepEqual(record.deviceEventRecords[0].activities, ['AC_GI_ACTIVE']);
    assert.equal(record.deviceEventRecords[0].deviceUuid, mine.site.doorControllers.Panel);
    assert.deepEqual(record.actionOutcomes.map((o: any) => [o.action, o.status]).sort(), [
      ['alertAction', 'SUCCESS'],
      ['triggerComponentRelayActions[0]', 'SUCCESS'],
    ]);
    assert.equal((await shadow(mine.relay)).state, 'ACTIVE');
    assert.ok(
      changes.some((c) => c.entity === 'COMPONENT_SHADOW' && c.entityUuid === mine.relay && (c.update as any).state === 'ACTIVE'),
      'the relay’s new state is on the stream',
    );
    assert.equal(
      (await apiAs(server, theirs.apiKey).ok('/api/component/findAllComponentShadows', { componentUuids: [theirs.relay] })).acuComponentShadowMap[theirs.relay]
        .state,
      'INACTIVE',
    );
  });

  it('refuses another organization’s component and a made-up one in a trigger, a doorbell rule and a relay action, naming the field', async () => {
    for (const id of [theirs.inputA, newRuuid()]) {
      assert.equal(await refused('/api/rules/createRule', inputRule(mine, [id])), `rule.triggers[0].componentUuids[0]: Component ${id} not found`);
    }
    const bellRule = (componentUuid: string) => ({
      rule: {
        ruleName: 'Ring',
        doorbellCameraUuid: mine.site.sensors['Front Bell'],
        doorbellCameraComponentUuid: componentUuid,
        action: { alertAction: true },
      },
    });
    for (const id of [theirs.bellButton, newRuuid()]) {
      assert.equal(
        await refused('/api/doorbellcamera/createRuleForDoorbellCamera', bellRule(id)),
        `rule.doorbellCameraComponentUuid: Component ${id} not found`,
      );
    }
    const relayAction = { ...inputRule(theirs, [mine.inputB]) };
    assert.equal(await refused('/api/rules/createRule', relayAction), 'rule.action.triggerComponentRelayActions[0].componentUuid: relay not found');
    const own = await ok('/api/doorbellcamera/createRuleForDoorbellCamera', bellRule(mine.bellButton));
    const { rules } = await ok('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: mine.site.sensors['Front Bell'] });
    assert.deepEqual(
      rules.map((r: any) => [r.ruleUuid, r.doorbellCameraComponentUuid]),
      [[own.ruleUuid, mine.bellButton]],
    );
  });

  it('a rule whose relay action drives the relay it fires on does not fire again on its own change (back-off 0), while other rules do', async () => {
    const relayRule = (name: string, action: object) => ({
      rule: {
        name,
        triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'AC_GR_ACTIVE' }, componentUuids: [mine.relay] }],
        ruleFilters: { triggerBackoffSecs: 0 },
        action,
      },
    });
    // Rules run in name order for one activity: the witness's record of a change means the loop's rule has decided on it.
    const loop = (
      await ok('/api/rules/createRule', relayRule('A relay loop', { triggerComponentRelayActions: [{ componentUuid: mine.relay, state: 'ACTIVE' }] }))
    ).ruleUuid;
    const witness = (await ok('/api/rules/createRule', relayRule('B witness', { alertAction: true }))).ruleUuid;
    const records = async (uuid: string) => (await ok('/api/rulesRecords/getLatestRulesEventRecords', { ruleUuid: uuid })).rulesEventRecords as any[];
    await ok('/api/component/updateIntegratedGenericRelayTransientState', { componentUuid: mine.relay, activate: true });
    // The witness fires on the operator's drive and on the loop rule's drive of the same relay.
    await waitFor('both drives seen by the witness', async () => ((await records(witness)).filter((r) => r.actionOutcomes?.length).length >= 2 ? true : null));
    const fired = await records(loop);
    assert.equal(fired.length, 1, 'the loop rule fired once, on the operator’s drive');
    assert.deepEqual(
      fired[0].actionOutcomes.map((o: any) => [o.action, o.status]),
      [['triggerComponentRelayActions[0]', 'SUCCESS']],
    );
    assert.equal((await records(witness)).length, 2);
    for (const ruleUuid of [loop, witness]) await ok('/api/rules/deleteRule', { ruleUuid });
  });

  it('a transient drive that ends announces the relay back in its steady state', async () => {
    const seen: Array<{ state: string; stateUpdateEventTimestampMs: number }> = [];
    const unsubscribe = server().gatehouse.deps.bus.subscribe('change', (c) => {
      if (c.entity === 'COMPONENT_SHADOW' && c.entityUuid === mine.relay) seen.push(c.update as (typeof seen)[number]);
    });
    try {
      await ok('/api/component/updateIntegratedGenericRelayTransientState', { componentUuid: mine.relay, activate: true, durationMs: 300 });
      const rest = await waitFor('the relay announced back at rest', () => seen.find((u) => u.state === 'INACTIVE'));
      assert.deepEqual(
        seen.map((u) => u.state),
        ['ACTIVE', 'INACTIVE'],
      );
      assert.equal(rest.stateUpdateEventTimestampMs - seen[0]!.stateUpdateEventTimestampMs, 300, 'back at rest as of the drive’s end');
      assert.deepEqual(await shadow(mine.relay), rest, 'the shadow reads as announced');
    } finally {
      unsubscribe();
    }
  });

  it('a deleted component leaves the rules that named it: the relay action goes, then the rule whose trigger named only the input', async () => {
    const ruleNow = async () => (await ok('/api/rules/getRulesForOrg', {})).rules.find((r: any) => r.uuid === ruleUuid);
    const onRelay = await changesDuring(server(), () => ok('/api/component/deleteComponent', { componentUuid: mine.relay }));
    assert.ok(onRelay.some((c) => c.entity === 'RULE' && c.type === 'UPDATE' && c.entityUuid === ruleUuid));
    assert.deepEqual((await ruleNow()).action, { alertAction: true });
    const onDevice = await changesDuring(server(), () =>
      ok('/api/component/deleteComponentsByOwnerDevice', { ownerDeviceUuid: mine.site.doorControllers.Panel }),
    );
    assert.ok(onDevice.some((c) => c.entity === 'RULE' && c.type === 'DELETE' && c.entityUuid === ruleUuid));
    assert.equal(await ruleNow(), undefined);
  });
});
