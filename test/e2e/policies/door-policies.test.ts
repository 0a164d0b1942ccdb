import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { changesDuring, nobodysUuid } from '../config/config-site.js';
import { seedRulesSite, type RulesSite } from '../rules/fixtures.js';
import { assertFails, assertOk } from '../../helpers/api.js';

/** The two door families share one implementation; each is exercised through its own operations. */
const FAMILIES = [
  {
    noun: 'Door',
    entity: 'DOOR_POLICY',
    label: 'Door policy',
    extra: { ajarThresholdSec: 45 },
    defaults: { defaultTriggers: [], defaultAjarThresholdSec: null },
  },
  { noun: 'AccessControlledDoor', entity: 'ACCESS_CONTROLLED_DOOR_POLICY', label: 'Access controlled door policy', extra: {}, defaults: {} },
] as const;

forEachDialect('door and access-controlled door policies', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: RulesSite;
  let otherSite: RulesSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Door Policy Org');
    other = await server.createOrg('Other Org');
    site = await seedRulesSite(server, org.orgUuid);
    otherSite = await seedRulesSite(server, other.orgUuid);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(`/api/policy/${path}`, body, { key });

  for (const family of FAMILIES) {
    const policyOf = (name: string, scheduleUuid: string, triggers = ['DOOR_OPENED', 'DOOR_AJAR']) => ({
      name,
      scheduledTriggers: [{ scheduleUuid, triggerSet: triggers, ...family.extra }],
    });
    const create = async (policy: object, key = org.apiKey): Promise<string> => {
      const r = await call(`create${family.noun}Policy`, { policy }, key);
      assertOk(r);
      return r.json.policyUuid;
    };
    const list = async (key = org.apiKey) => (await call(`get${family.noun}Policies`, {}, key)).json.policies as any[];

    describe(`POST /api/policy/create${family.noun}Policy, update, delete, get`, () => {
      it('keeps the policy and answers it with its schedule in full; announces every change', async () => {
        let uuid = '';
        const changes = await changesDuring(server, async () => {
          uuid = await create(policyOf('Front', site.schedules['Business Hours']));
          assertOk(await call(`update${family.noun}Policy`, { policy: { uuid, name: 'Front door' } }));
        });
        const found = (await list()).find((p) => p.uuid === uuid);
        assert.deepEqual(
          { ...found, scheduledTriggers: undefined },
          { uuid, orgUuid: org.orgUuid, name: 'Front door', scheduledTriggers: undefined, ...family.defaults },
        );
        assert.equal(found.scheduledTriggers.length, 1);
        const [trigger] = found.scheduledTriggers;
        assert.deepEqual(trigger.triggerSet, ['DOOR_OPENED', 'DOOR_AJAR']);
        assert.equal(trigger.schedule.uuid, site.schedules['Business Hours']);
        if ('ajarThresholdSec' in family.extra) assert.equal(trigger.ajarThresholdSec, 45);
        assert.deepEqual(
          changes.filter((c) => c.entity === family.entity).map((c) => [c.type, c.entityUuid]),
          [
            ['CREATE', uuid],
            ['UPDATE', uuid],
          ],
        );
        const deleted = await changesDuring(server, async () => assertOk(await call(`delete${family.noun}Policy`, { policyUuid: uuid })));
        assert.ok(!(await list()).some((p) => p.uuid === uuid));
        assert.deepEqual(
          deleted.filter((c) => c.entity === family.entity).map((c) => c.type),
          ['DELETE'],
        );
      });

      it("refuses another organization's schedule, a missing schedule uuid, an unknown trigger and a missing name", async () => {
        const foreign = otherSite.schedules['Business Hours'];
        assertFails(
          await call(`create${family.noun}Policy`, { policy: policyOf('x', foreign) }),
          `policy.scheduledTriggers[0].scheduleUuid: Schedule ${foreign} not found`,
        );
        assertFails(
          await call(`create${family.noun}Policy`, { policy: { name: 'x', scheduledTriggers: [{ triggerSet: [] }] } }),
          'policy.scheduledTriggers[0].scheduleUuid: required',
        );
        assert.equal((await call(`create${family.noun}Policy`, { policy: policyOf('x', site.schedules['Business Hours'], ['NOT_AN_ACTIVITY']) })).status, 400);
        assertFails(await call(`create${family.noun}Policy`, { policy: { scheduledTriggers: [] } }), 'policy.name: required');
        const uuid = await create(policyOf('Kept', site.schedules['Business Hours']));
        assertFails(
          await call(`update${family.noun}Policy`, { policy: { uuid, scheduledTriggers: [{ scheduleUuid: foreign, triggerSet: [] }] } }),
          /Schedule .* not found/,
        );
        assert.equal((await list()).find((p) => p.uuid === uuid).scheduledTriggers[0].schedule.uuid, site.schedules['Business Hours'], 'unchanged');
        assert.equal((await list()).filter((p) => p.name === 'x').length, 0);
      });

      it("answers another organization's policy exactly as an unknown one, and changes nothing", async () => {
        const theirs = await create(policyOf('Theirs', otherSite.schedules['Business Hours']), other.apiKey);
        assert.ok(!(await list()).some((p) => p.uuid === theirs));
        const nobody = nobodysUuid();
        for (const uuid of [theirs, nobody]) {
          assertFails(await call(`update${family.noun}Policy`, { policy: { uuid, name: 'Mine' } }), `${family.label} ${uuid} not found`);
          assertFails(await call(`delete${family.noun}Policy`, { policyUuid: uuid }), `${family.label} ${uuid} not found`);
        }
        assert.equal((await list(other.apiKey)).find((p) => p.uuid === theirs).name, 'Theirs');
      });
    });
  }

  describe('POST /api/policy/getPoliciesUsingSchedule and deleteSchedule', () => {
    it('lists the policies of each family that name the schedule, and refuses to delete it while they do', async () => {
      const schedule = await call('createSchedule', { schedule: { name: 'Nights', intervalList: [{ minuteOfWeekStart: 0, minuteOfWeekStop: 360 }] } });
      assertOk(schedule);
      const nights = schedule.json.scheduleUuid;
      const cam = await call('createCameraPolicy', {
        policy: { name: 'Night cam', scheduledTriggers: [{ scheduleUuid: nights, triggerSet: [{ activity: 'MOTION' }] }] },
      });
      const door = await call('createDoorPolicy', {
        policy: { name: 'Night door', scheduledTriggers: [{ scheduleUuid: nights, triggerSet: ['DOOR_OPENED'] }] },
      });
      await call('createDoorPolicy', { policy: { name: 'Day door', scheduledTriggers: [{ scheduleUuid: site.schedules['Business Hours'], triggerSet: [] }] } });
      const r = await call('getPoliciesUsingSchedule', { scheduleUuid: nights });
      assertOk(r);
      assert.deepEqual(
        r.json.cameraPolicyList.map((p: any) => p.uuid),
        [cam.json.policyUuid],
      );
      assert.deepEqual(
        r.json.doorPolicyList.map((p: any) => p.uuid),
        [door.json.policyUuid],
      );
      assert.deepEqual(r.json.accessControlledDoorPolicyList, []);
      assert.deepEqual(r.json.audioPolicyList, []);

      assertFails(await call('deleteSchedule', { scheduleUuid: nights }), 'Schedule "Nights" is in use by camera policy "Night cam", door policy "Night door"');
      assertOk(await call('deleteCameraPolicy', { policyUuid: cam.json.policyUuid }));
      assertOk(await call('deleteDoorPolicy', { policyUuid: door.json.policyUuid }));
      assertOk(await call('deleteSchedule', { scheduleUuid: nights }));
    });

    it("answers another organization's schedule as an unknown one", async () => {
      const foreign = await call('getPoliciesUsingSchedule', { scheduleUuid: otherSite.schedules['Business Hours'] });
      assertFails(foreign, 'Schedule not found');
      assertFails(await call('getPoliciesUsingSchedule', { scheduleUuid: nobodysUuid() }), 'Schedule not found');
      assert.equal((await call('getPoliciesUsingSchedule', { scheduleUuid: 'not a uuid' })).status, 400);
    });
  });
});
