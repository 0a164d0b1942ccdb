import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { recordChanges } from '../access-lockdown/fixtures.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';

/** The audio, climate, occupancy, proximity and video intercom policies: one family table, and a climate policy at work. */
const SITE = `
locations: [{name: HQ, timeZone: Europe/Paris}, {name: Depot, timeZone: Europe/Paris}]
schedules: [{name: Always, intervals: [{start: 0, stop: 10080}]}, {name: Never Used, intervals: [{start: 0, stop: 60}]}]
sensors:
  - {name: Server Room, kind: environmental, location: HQ, thresholds: {tempC: 30, co2Ppm: 1500}}
  - {name: Hall PIR, kind: occupancy, location: HQ}
  - {name: Forklift, kind: tag, location: Depot}
`;

const FAMILIES = [
  {
    noun: 'Audio',
    entity: 'AUDIO_POLICY',
    trigger: { activity: 'AUDIO_SOUND_LOUD', threshold: 80 },
    extra: {},
    policy: {},
    defaults: { defaultTriggers: [] },
  },
  {
    noun: 'Climate',
    entity: 'CLIMATE_POLICY',
    trigger: { activity: 'TEMPERATURE_EXCEEDED_HIGH', threshold: 24.5 },
    extra: {},
    policy: { backoffAlertSecs: { TEMPERATURE_EXCEEDED_HIGH: 600 } },
    defaults: { defaultTriggers: [] },
  },
  {
    noun: 'Occupancy',
    entity: 'OCCUPANCY_POLICY',
    trigger: 'PIR_OCCUPIED',
    extra: { occupancyThresholdSec: 30, vacancyThresholdSec: 600 },
    policy: {},
    defaults: {},
  },
  { noun: 'Proximity', entity: 'PROXIMITY_POLICY', trigger: { activity: 'TAG_ARRIVED' }, extra: { departureThresholdSec: 120 }, policy: {}, defaults: {} },
  {
    noun: 'VideoIntercom',
    entity: 'VIDEO_INTERCOM_POLICY',
    trigger: { activity: 'FACE_UNIDENTIFIED', faceAlertUnidentified: true, peopleCountThreshold: 2 },
    extra: {},
    policy: {},
    defaults: {},
  },
] as const;

forEachDialect('policy families: audio, climate, occupancy, proximity, video intercom', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey, '/api/policy');
  const theirs = apiAs(server, () => other.apiKey, '/api/policy');

  before(async () => {
    org = await server().createOrg('Policies');
    other = await server().createOrg('Other');
    const r = await control(server(), `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(r.json.error, false, r.text);
    site = r.json;
  });

  it('creates, reads back (schedules in full), updates and deletes a policy of each family, announcing each change', async () => {
    const always = site.schedules.Always;
    for (const f of FAMILIES) {
      const policy = {
        name: `${f.noun} watch`,
        description: 'after hours',
        ...f.policy,
        scheduledTriggers: [{ scheduleUuid: always, triggerSet: [f.trigger, f.trigger], ...f.extra }],
      };
      const created = await recordChanges(server(), async () => api.ok(`create${f.noun}Policy`, { policy }));
      const uuid = created.result.policyUuid;
      assert.deepEqual(
        created.changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [[f.entity, 'CREATE', uuid]],
        f.noun,
      );
      const [listed] = (await api.ok(`get${f.noun}Policies`)).policies;
      const { scheduledTriggers, ...rest } = listed;
      assert.deepEqual(rest, { uuid, orgUuid: org.orgUuid, name: policy.name, description: 'after hours', ...f.policy, ...f.defaults }, f.noun);
      assert.deepEqual(scheduledTriggers[0].triggerSet, [f.trigger], `${f.noun}: a trigger given twice is kept once`);
      assert.deepEqual([scheduledTriggers[0].schedule.uuid, scheduledTriggers[0].schedule.name], [always, 'Always']);
      for (const [k, v] of Object.entries(f.extra)) assert.equal(scheduledTriggers[0][k], v, `${f.noun}.${k}`);

      const usingSchedule = await api.ok('getPoliciesUsingSchedule', { scheduleUuid: always });
      const listName = `${f.noun[0].toLowerCase()}${f.noun.slice(1)}PolicyList`;
      assert.deepEqual(
        usingSchedule[listName].map((p: any) => p.uuid),
        [uuid],
        listName,
      );
      assert.match(await api.refused('/api/policy/deleteSchedule', { scheduleUuid: always }), new RegExp(`policy "${f.noun} watch"`, 'i'));

      const missing = nobodysUuid();
      assertSameAsMissing(
        await theirs.call(`update${f.noun}Policy`, { policy: { uuid, name: 'taken' } }),
        await theirs.call(`update${f.noun}Policy`, { policy: { uuid: missing, name: 'taken' } }),
        [uuid, missing],
      );
      assertSameAsMissing(
        await theirs.call(`delete${f.noun}Policy`, { policyUuid: uuid }),
        await theirs.call(`delete${f.noun}Policy`, { policyUuid: missing }),
        [uuid, missing],
      );
      assert.match(
        await theirs.refused(`create${f.noun}Policy`, { policy: { ...policy, name: 'x' } }),
        /scheduleUuid: Schedule .* not found/,
        'their policy cannot name our schedule',
      );

      await api.ok(`update${f.noun}Policy`, { policy: { uuid, name: `${f.noun} renamed` } });
      assert.equal((await api.ok(`get${f.noun}Policies`)).policies[0].name, `${f.noun} renamed`);
      const deleted = await recordChanges(server(), async () => api.ok(`delete${f.noun}Policy`, { policyUuid: uuid }));
      assert.deepEqual(
        deleted.changes.map((c) => [c.entity, c.type]),
        [[f.entity, 'DELETE']],
      );
      assert.deepEqual((await api.ok(`get${f.noun}Policies`)).policies, []);
    }
  });

  it("a climate sensor that follows a climate policy alerts on the policy's thresholds while its schedule covers the moment", async () => {
    const sensor = site.sensors['Server Room'];
    const reading = async (readings: Record<string, string>) => (await control(server(), '/simulate/reading', { sensor, ...readings })).json;
    assert.equal((await reading({ tempC: '26' })).policyAlert, null, 'under its own threshold of 30');

    const policyUuid = (
      await api.ok('createClimatePolicy', {
        policy: {
          name: 'Cold room',
          scheduledTriggers: [{ scheduleUuid: site.schedules.Always, triggerSet: [{ activity: 'TEMPERATURE_EXCEEDED_HIGH', threshold: 24.5 }] }],
        },
      })
    ).policyUuid;
    const theirPolicy = (await theirs.ok('createClimatePolicy', { policy: { name: 'Theirs', scheduledTriggers: [] } })).policyUuid;
    assert.match(await api.refused('/api/climate/updateDetails', { uuid: sensor, policyUuid: theirPolicy, policyUuidUpdated: true }), /not found/i);
    await api.ok('/api/climate/updateDetails', { uuid: sensor, policyUuid, policyUuidUpdated: true });

    const alerted = await reading({ tempC: '26', co2Ppm: '5000' });
    assert.deepEqual(alerted.crossings, [{ reading: 'tempC', value: 26, threshold: 24.5 }], "the policy's threshold; CO2 is not among its triggers");
    assert.deepEqual(alerted.policyAlert.policyAlertTriggers, ['TEMPERATURE_EXCEEDED_HIGH']);
    assert.match(await api.refused('deleteClimatePolicy', { policyUuid }), /Climate policy "Cold room" is in use by climate sensor "Server Room"/);

    // A schedule that does not cover the moment silences the trigger.
    await api.ok('updateClimatePolicy', {
      policy: {
        uuid: policyUuid,
        scheduledTriggers: [{ scheduleUuid: site.schedules['Never Used'], triggerSet: [{ activity: 'TEMPERATURE_EXCEEDED_HIGH', threshold: 24.5 }] }],
      },
    });
    const mondayNoonParis = Date.parse('2026-11-30T11:00:00Z');
    assert.equal((await control(server(), '/simulate/reading', { sensor, tempC: '40', at: String(mondayNoonParis) })).json.policyAlert, null);
  });

  it("an occupancy sensor's and a proximity tag's alerts follow their policy: its schedules and its triggers' locations", async () => {
    const alert = async (device: string, trigger: string) => (await control(server(), '/simulate/alert', { device, trigger })).json.policyAlert;
    const { 'Hall PIR': pir, Forklift: tag } = site.sensors as Record<string, string>;
    const occupancy = (
      await api.ok('createOccupancyPolicy', {
        policy: { name: 'Hall hours', scheduledTriggers: [{ scheduleUuid: site.schedules.Always, triggerSet: ['PIR_OCCUPIED'] }] },
      })
    ).policyUuid;
    await api.ok('/api/occupancy/updateDetails', { uuid: pir, policyUuid: occupancy, policyUuidUpdated: true });
    assert.equal((await alert(pir, 'PIR_OCCUPIED')).policyUuid, occupancy, 'named by a trigger whose schedule covers now');
    assert.equal(await alert(pir, 'PIR_VACANT'), null, 'not among its triggers');
    await api.ok('updateOccupancyPolicy', {
      policy: { uuid: occupancy, scheduledTriggers: [{ scheduleUuid: site.schedules['Never Used'], triggerSet: ['PIR_OCCUPIED'] }] },
    });
    const mondayNoonParis = Date.parse('2026-11-30T11:00:00Z');
    const outside = await control(server(), '/simulate/alert', { device: pir, trigger: 'PIR_OCCUPIED', at: String(mondayNoonParis) });
    assert.equal(outside.json.policyAlert, null, 'its schedule does not cover the moment');

    const proximity = (
      await api.ok('createProximityPolicy', {
        policy: {
          name: 'HQ arrivals',
          scheduledTriggers: [{ scheduleUuid: site.schedules.Always, triggerSet: [{ activity: 'TAG_ARRIVED', locationUuids: [site.locations.HQ] }] }],
        },
      })
    ).policyUuid;
    await api.ok('/api/proximity/updateDetails', { uuid: tag, policyUuid: proximity, policyUuidUpdated: true });
    assert.equal(await alert(tag, 'TAG_ARRIVED'), null, 'the tag is at the Depot, which the trigger does not name');
    await api.ok('updateProximityPolicy', {
      policy: {
        uuid: proximity,
        scheduledTriggers: [{ scheduleUuid: site.schedules.Always, triggerSet: [{ activity: 'TAG_ARRIVED', locationUuids: [site.locations.Depot] }] }],
      },
    });
    assert.deepEqual((await alert(tag, 'TAG_ARRIVED')).policyAlertTriggers, ['TAG_ARRIVED']);
  });
});
