import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { changesDuring, nobodysUuid } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { MONDAY_10AM_NY, MONDAY_8AM_NY, seedRulesSite, type RulesSite } from '../rules/fixtures.js';
import { assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('camera policies', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: RulesSite;
  let otherSite: RulesSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Policy Org');
    other = await server.createOrg('Other Org');
    site = await seedRulesSite(server, org.orgUuid);
    otherSite = await seedRulesSite(server, other.orgUuid);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(`/api/policy/${path}`, body, { key });
  const businessHours = () => site.schedules['Business Hours'];
  const motionPolicy = (name = 'Lobby motion', scheduleUuid = businessHours()) => ({
    name,
    scheduledTriggers: [{ scheduleUuid, triggerSet: [{ activity: 'MOTION' }, { activity: 'PEOPLECOUNT_HIGH', threshold: 5 }] }],
  });
  const create = async (policy: object, key = org.apiKey): Promise<string> => {
    const r = await call('createCameraPolicy', { policy }, key);
    assertOk(r);
    return r.json.policyUuid;
  };
  const policies = async (key = org.apiKey) => (await call('getCameraPolicies', {}, key)).json.policies as any[];
  const assign = (camera: string, policyUuid: string | null, key = org.apiKey) =>
    server.call('/api/camera/updateDetailsV2', { uuid: camera, policyUuid, policyUuidUpdated: true }, { key });
  const alert = async (device: string, trigger: string, at: number, extra: object = {}) => {
    const r = await control(server, '/simulate/alert', { device, trigger, at, ...extra });
    assert.equal(r.json?.error, false, r.text);
    return r.json.policyAlert;
  };

  describe('POST /api/policy/createCameraPolicy and getCameraPolicies', () => {
    it('requires authentication', async () => {
      assert.equal((await server.call('/api/policy/createCameraPolicy', { policy: motionPolicy() }, { key: '' })).status, 401);
    });

    it('keeps the policy, answers it with its schedule in full, and announces it', async () => {
      let uuid = '';
      const changes = await changesDuring(server, async () => {
        uuid = await create(motionPolicy('Created'));
      });
      const found = (await policies()).find((p) => p.uuid === uuid);
      assert.equal(found.name, 'Created');
      assert.equal(found.orgUuid, org.orgUuid);
      assert.deepEqual(found.defaultTriggers, []);
      assert.equal(found.scheduledTriggers.length, 1);
      assert.equal(found.scheduledTriggers[0].schedule.uuid, businessHours());
      assert.equal(found.scheduledTriggers[0].schedule.name, 'Business Hours');
      assert.deepEqual(found.scheduledTriggers[0].schedule.intervalList, [{ minuteOfWeekStart: 540, minuteOfWeekStop: 1020 }]);
      assert.deepEqual(found.scheduledTriggers[0].triggerSet, [{ activity: 'MOTION' }, { activity: 'PEOPLECOUNT_HIGH', threshold: 5 }]);
      const change = changes.find((c) => c.entity === 'CAMERA_POLICY');
      assert.ok(change, 'a CAMERA_POLICY change');
      assert.equal(change.type, 'CREATE');
      assert.equal(change.entityUuid, uuid);
      assert.equal((change.update as any).scheduledTriggers[0].scheduleUuid, businessHours());
    });

    it("refuses a missing name, a schedule that is not the organization's, and a bad activity", async () => {
      assertFails(await call('createCameraPolicy', { policy: { scheduledTriggers: [] } }), 'policy.name: required');
      const foreign = otherSite.schedules['Business Hours'];
      assertFails(
        await call('createCameraPolicy', { policy: { name: 'x', scheduledTriggers: [{ scheduleUuid: foreign, triggerSet: [] }] } }),
        `policy.scheduledTriggers[0].scheduleUuid: Schedule ${foreign} not found`,
      );
      assertFails(
        await call('createCameraPolicy', { policy: { name: 'x', scheduledTriggers: [{ triggerSet: [] }] } }),
        'policy.scheduledTriggers[0].scheduleUuid: required',
      );
      const bad = await call('createCameraPolicy', {
        policy: { name: 'x', scheduledTriggers: [{ scheduleUuid: businessHours(), triggerSet: [{ activity: 'NOPE' }] }] },
      });
      assert.equal(bad.status, 400);
      assert.equal((await policies()).filter((p) => p.name === 'x').length, 0, 'nothing was kept');
    });

    it("does not show one organization's policies to another", async () => {
      const uuid = await create(motionPolicy('Private'));
      await create(motionPolicy('Other private', otherSite.schedules['Business Hours']), other.apiKey);
      assert.ok(!(await policies(other.apiKey)).some((p) => p.uuid === uuid));
    });
  });

  describe('POST /api/policy/updateCameraPolicy and deleteCameraPolicy', () => {
    it('changes the name and the triggers given, keeping the rest', async () => {
      const uuid = await create(motionPolicy('Before'));
      assertOk(await call('updateCameraPolicy', { policy: { uuid, name: 'After' } }));
      let found = (await policies()).find((p) => p.uuid === uuid);
      assert.equal(found.name, 'After');
      assert.equal(found.scheduledTriggers[0].triggerSet.length, 2);
      const changes = await changesDuring(server, async () => {
        assertOk(
          await call('updateCameraPolicy', {
            policy: { uuid, scheduledTriggers: [{ scheduleUuid: businessHours(), triggerSet: [{ activity: 'MOTION_HUMAN' }] }] },
          }),
        );
      });
      found = (await policies()).find((p) => p.uuid === uuid);
      assert.equal(found.name, 'After');
      assert.deepEqual(found.scheduledTriggers[0].triggerSet, [{ activity: 'MOTION_HUMAN' }]);
      assert.deepEqual(
        changes.filter((c) => c.entity === 'CAMERA_POLICY').map((c) => [c.type, c.entityUuid]),
        [['UPDATE', uuid]],
      );
    });

    it("answers another organization's policy exactly as an unknown one, and changes nothing", async () => {
      const theirs = await create(motionPolicy('Theirs', otherSite.schedules['Business Hours']), other.apiKey);
      for (const [op, body] of [
        ['updateCameraPolicy', { policy: { uuid: theirs, name: 'Mine now' } }],
        ['deleteCameraPolicy', { policyUuid: theirs }],
      ] as const) {
        assertFails(await call(op, body), `Camera policy ${theirs} not found`);
        const nobody = nobodysUuid();
        assertFails(
          await call(op, op === 'deleteCameraPolicy' ? { policyUuid: nobody } : { policy: { uuid: nobody, name: 'x' } }),
          `Camera policy ${nobody} not found`,
        );
      }
      assert.equal((await policies(other.apiKey)).find((p) => p.uuid === theirs).name, 'Theirs');
    });

    it('deletes a policy and announces it', async () => {
      const uuid = await create(motionPolicy('Doomed'));
      const changes = await changesDuring(server, async () => assertOk(await call('deleteCameraPolicy', { policyUuid: uuid })));
      assert.ok(!(await policies()).some((p) => p.uuid === uuid));
      assert.deepEqual(
        changes.filter((c) => c.entity === 'CAMERA_POLICY').map((c) => [c.type, c.entityUuid]),
        [['DELETE', uuid]],
      );
    });

    it('refuses a write from a read-only key', async () => {
      const reader = await readOnlyKey(server, org);
      expectDenied(await call('createCameraPolicy', { policy: motionPolicy() }, reader));
      assertOk(await call('getCameraPolicies', {}, reader));
    });
  });

  describe('the camera policy decides which activities raise policy alerts, and when', () => {
    let policyUuid: string;
    before(async () => {
      policyUuid = await create(motionPolicy('Effect'));
      assertOk(await assign(site.cameras.Lobby, policyUuid));
    });

    it("shows the camera's policy in its details, and refuses another organization's policy", async () => {
      const r = await server.call('/api/camera/getDetailsV2', { cameraUuid: site.cameras.Lobby }, { key: org.apiKey });
      assert.equal(r.json.camera.policyUuid, policyUuid);
      assertFails(await assign(otherSite.cameras.Lobby, policyUuid, other.apiKey), `Camera policy ${policyUuid} not found`);
    });

    it('raises no alert for motion outside the schedule, and announces none', async () => {
      const changes = await changesDuring(server, async () => {
        assert.equal(await alert(site.cameras.Lobby, 'MOTION', MONDAY_8AM_NY), null);
      });
      assert.ok(!changes.some((c) => c.entity === 'POLICY_ALERT'));
      const listed = await server.call('/api/event/getPolicyAlertsV2', { deviceFilter: [site.cameras.Lobby] }, { key: org.apiKey });
      assert.ok(!listed.json.policyAlerts.some((a: any) => a.timestampMs === MONDAY_8AM_NY));
    });

    it('raises the alert for motion inside the schedule, naming the policy', async () => {
      const raised = await alert(site.cameras.Lobby, 'MOTION', MONDAY_10AM_NY);
      assert.deepEqual(raised.policyAlertTriggers, ['MOTION']);
      assert.equal(raised.policyUuid, policyUuid);
      assert.equal(raised.timestampMs, MONDAY_10AM_NY);
    });

    it('raises no alert for an activity the policy does not name, nor under its threshold', async () => {
      assert.equal(await alert(site.cameras.Lobby, 'MOTION_CAR', MONDAY_10AM_NY), null);
      assert.equal(await alert(site.cameras.Lobby, 'PEOPLECOUNT_HIGH', MONDAY_10AM_NY, { people: 3 }), null);
      assert.deepEqual((await alert(site.cameras.Lobby, 'PEOPLECOUNT_HIGH', MONDAY_10AM_NY, { people: 6 })).policyAlertTriggers, ['PEOPLECOUNT_HIGH']);
    });

    it('refuses to delete the policy while a camera follows it', async () => {
      assertFails(await call('deleteCameraPolicy', { policyUuid }), 'Camera policy "Effect" is in use by camera "Lobby"');
      assert.ok((await policies()).some((p) => p.uuid === policyUuid));
    });

    it('leaves a camera without a policy alerting on everything, at any time', async () => {
      assert.ok(await alert(otherSite.cameras.Lobby, 'MOTION', MONDAY_8AM_NY));
      assertOk(await assign(site.cameras.Lobby, null));
      assert.deepEqual((await alert(site.cameras.Lobby, 'MOTION_CAR', MONDAY_8AM_NY)).policyAlertTriggers, ['MOTION_CAR']);
      assertOk(await assign(site.cameras.Lobby, policyUuid));
    });
  });
});
