import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ScheduleUsageCheck } from '../../../src/domains/schedules/schedule-usage.js';
import { deleteSchedule, findSchedule } from '../../../src/domains/schedules/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const interval = (minuteOfWeekStart: number, minuteOfWeekStop: number) => ({ minuteOfWeekStart, minuteOfWeekStop });

forEachDialect('schedules: createSchedule, findSchedules, deleteSchedule', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Schedule Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (path: string, body: object, key = org.apiKey) => server.call(`/api/policy/${path}`, body, { key });

  describe('POST /api/policy/createSchedule', () => {
    it('requires authentication', async () => {
      assert.equal((await server.call('/api/policy/createSchedule', { schedule: { name: 'x', intervalList: [] } }, { key: '' })).status, 401);
    });

    it('creates a weekly schedule, answers its uuid, and announces it', async () => {
      let r: Awaited<ReturnType<typeof call>> | undefined;
      const events = await changesDuring(server, async () => {
        r = await call('createSchedule', { schedule: { name: ' Nights ', intervalList: [interval(1320, 1440), interval(0, 360)], oneTimeUse: true } });
      });
      assertOk(r!);
      const uuid = r!.json.scheduleUuid;
      assert.match(uuid, /^[A-Za-z0-9_-]{22}$/);
      const saved = await findSchedule(server.gatehouse.deps, org.orgUuid, uuid);
      assert.deepEqual(saved, {
        uuid,
        orgUuid: org.orgUuid,
        name: 'Nights',
        intervalList: [interval(0, 360), interval(1320, 1440)],
        mutable: true,
        oneTimeUse: true,
        strategy: 'WEEKLY_REPEATING_MINUTES',
      });
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [['SCHEDULE', 'CREATE', uuid]],
      );
    });

    it('applies the interval rules', async () => {
      assertFails(
        await call('createSchedule', { schedule: { name: 'Bad', intervalList: [interval(0, 10081)] } }),
        'schedule.intervalList[0]: start and stop must be within 0..10080',
      );
      assertFails(
        await call('createSchedule', { schedule: { name: 'Bad', intervalList: [interval(10, 5)] } }),
        'schedule.intervalList[0]: start must be < stop',
      );
      assertFails(
        await call('createSchedule', { schedule: { name: 'Bad', intervalList: [interval(0, 100), interval(50, 150)] } }),
        'schedule.intervalList[1]: overlaps schedule.intervalList[0]',
      );
      assertFails(
        await call('createSchedule', { schedule: { name: 'Bad', intervalList: [], strategy: 'RELATIVE_DATETIME_INTERVALS' } }),
        /this operation takes WEEKLY_REPEATING_MINUTES schedules, not RELATIVE_DATETIME_INTERVALS/,
      );
      assertFails(await call('createSchedule', { schedule: { name: ' ', intervalList: [] } }), 'schedule.name: must not be empty');
    });

    it('refuses to create a schedule in another organization', async () => {
      const foreign = await call('createSchedule', { schedule: { name: 'X', intervalList: [], orgUuid: other.orgUuid } });
      assertSameAsMissing(foreign, await call('createSchedule', { schedule: { name: 'X', intervalList: [], orgUuid: nobodysUuid() } }));
      assert.equal(foreign.json.errorMsg, 'Organization not found');
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{}, { schedule: { intervalList: [] } }, { schedule: { name: 'x' } }, { schedule: { name: 'x', intervalList: 'all week' } }]) {
        assert.equal((await call('createSchedule', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/policy/findSchedules', () => {
    it('requires authentication', async () => {
      assert.equal((await server.call('/api/policy/findSchedules', {}, { key: '' })).status, 401);
    });

    it("answers the organization's schedules by name, and only its own", async () => {
      const r = await call('findSchedules', {});
      assertOk(r);
      const names = r.json.schedules.map((s: { name: string }) => s.name);
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.includes('Business Hours') && names.includes('Locked'));
      const uuids = r.json.schedules.map((s: { uuid: string }) => s.uuid);
      assert.ok(!uuids.includes(other.site.schedules['Business Hours']));
      const locked = r.json.schedules.find((s: { name: string }) => s.name === 'Locked');
      assert.deepEqual(locked, {
        uuid: org.site.schedules.Locked,
        orgUuid: org.orgUuid,
        name: 'Locked',
        intervalList: [interval(60, 120)],
        mutable: false,
        oneTimeUse: false,
        strategy: 'WEEKLY_REPEATING_MINUTES',
      });
    });

    it('answers a malformed body with 400', async () => {
      assert.equal((await call('findSchedules', 'null' as never)).status, 400);
    });
  });

  describe('POST /api/policy/deleteSchedule', () => {
    it('requires authentication', async () => {
      assert.equal((await server.call('/api/policy/deleteSchedule', { scheduleUuid: org.site.schedules.Spare }, { key: '' })).status, 401);
    });

    it('deletes an unused schedule and announces it', async () => {
      const uuid = (await call('createSchedule', { schedule: { name: 'Temporary', intervalList: [interval(0, 1)] } })).json.scheduleUuid;
      let r: Awaited<ReturnType<typeof call>> | undefined;
      const events = await changesDuring(server, async () => (r = await call('deleteSchedule', { scheduleUuid: uuid })));
      assertOk(r!);
      assert.equal(await findSchedule(server.gatehouse.deps, org.orgUuid, uuid), null);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid, (e.update as { name: string }).name]),
        [['SCHEDULE', 'DELETE', uuid, 'Temporary']],
      );
      assertFails(await call('deleteSchedule', { scheduleUuid: uuid }), 'Schedule not found');
    });

    it('refuses to delete a schedule that a door follows, naming the door', async () => {
      const uuid = org.site.schedules['Business Hours'];
      assertFails(await call('deleteSchedule', { scheduleUuid: uuid }), 'Schedule "Business Hours" is in use by door "Front Door"');
      assert.ok(await findSchedule(server.gatehouse.deps, org.orgUuid, uuid));
    });

    it('refuses deletion for every domain that registers a usage check, listing all users', async () => {
      const uuid = (await call('createSchedule', { schedule: { name: 'Alarm Hours', intervalList: [] } })).json.scheduleUuid;
      // What the rules domain does: provide its own check, without the schedules domain importing it.
      const rulesCheck: ScheduleUsageCheck = async (_source, orgUuid, scheduleUuid) =>
        orgUuid === org.orgUuid && scheduleUuid === uuid
          ? [
              { kind: 'rule', uuid: 'night', label: 'rule "Night Alarm"' },
              { kind: 'rule', uuid: 'tamper', label: 'rule "Tamper"' },
            ]
          : [];
      const deps = server.gatehouse.deps;
      const ctx = {
        orgUuid: org.orgUuid,
        userUuid: null,
        apiKeyId: null,
        partnerOrgUuid: null,
        operation: 'deleteSchedule',
        keyKind: 'standard' as const,
        requestId: 'test',
      };
      await assert.rejects(deleteSchedule({ ...deps, scheduleUsage: [...deps.scheduleUsage, rulesCheck] }, ctx, uuid), {
        message: 'Schedule "Alarm Hours" is in use by rule "Night Alarm", rule "Tamper"',
      });
      assert.ok(await findSchedule(server.gatehouse.deps, org.orgUuid, uuid));
    });

    it('refuses to delete a schedule with mutable false', async () => {
      assertFails(await call('deleteSchedule', { scheduleUuid: org.site.schedules.Locked }), 'Schedule "Locked" is not mutable');
    });

    it("answers another organization's schedule exactly as a missing one, and leaves it", async () => {
      const theirs = other.site.schedules.Spare;
      assertSameAsMissing(await call('deleteSchedule', { scheduleUuid: theirs }), await call('deleteSchedule', { scheduleUuid: nobodysUuid() }));
      assert.ok(await findSchedule(server.gatehouse.deps, other.orgUuid, theirs));
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{}, { scheduleUuid: 12 }, { scheduleUuid: 'not-a-ruuid' }]) assert.equal((await call('deleteSchedule', body)).status, 400);
    });
  });
});
