import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia } from '../../helpers/media-decode.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { changesDuring, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';
import { apiAs, assertFails } from '../../helpers/api.js';

// A daylight-saving week in New York (the site's zone): 10 March 2024 has 23 hours.
const MAR9 = Date.UTC(2024, 2, 9, 5);
const MAR10 = Date.UTC(2024, 2, 10, 5);
const MAR11 = Date.UTC(2024, 2, 11, 4);
const MAR12 = Date.UTC(2024, 2, 12, 4);
const MIN = 60_000;

forEachDialect('scene-query prompts, their answers (custom events) and the custom-event reports', (dialect) => {
  let server: TestServer;
  let analyzer: Receiver;
  let site: EventsSite;
  let other: EventsSite;
  /** What the analyzer answers next, by prompt type (a status instead: it fails). */
  const answers: Record<string, string | number> = { COUNT: '3', BOOLEAN: 'yes', TEXT: 'A red van' };
  before(async () => {
    analyzer = await startReceiver((request) => {
      if (request.path.endsWith('/v1/prompts/optimize')) {
        const ok = request.json?.image?.contentType === 'image/jpeg' && request.json?.context?.originalPrompt;
        return ok
          ? { status: 200, body: { optimizedPrompt: `${request.json.context.originalPrompt} Count only adults.`, explanation: 'narrower' } }
          : { status: 422 };
      }
      const a = answers[request.json?.promptType];
      return typeof a === 'number' ? { status: a } : { status: 200, body: { value: a } };
    });
    server = await startTestServer(dialect, { env: { GATEHOUSE_ANALYTICS_API_URL: analyzer.url } });
    site = await seedEventsSite(server, 'Prompts Org');
    other = await seedEventsSite(server, 'Other Prompts Org');
  });
  after(async () => {
    await server.close();
    await analyzer.close();
  });

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api',
  );
  const create = async (promptConfiguration: object, s = site) =>
    (await ok('scenequery/createPromptConfiguration', { promptConfiguration }, { key: s.org.apiKey })).promptConfiguration;
  const answer = (prompt: string, camera: string, value: string, at: number) => simulate(server, 'custom-event', { camera, prompt, value, at });

  describe('prompt configurations', () => {
    it('creates, reads, updates and deletes prompts of the organization, checking cameras and conditions, each on the stream', async () => {
      let made: any;
      const changes = await changesDuring(server, async () => {
        made = await create({
          name: 'Queue length',
          prompt: 'How many people queue at the desk?',
          promptType: 'COUNT',
          checkCondition: { operator: 'GT', value: '5' },
          cameraConfigurations: [{ cameraUuid: site.lobby, checkConditionOverride: { operator: 'GTE', value: '3' } }],
        });
      });
      assert.equal(changes.find((c) => c.entity === 'PROMPT_CONFIGURATION')?.type, 'CREATE');
      assert.deepEqual([made.active, made.cameraConfigurations[0].cameraUuid, made.orgUuid], [true, `${site.lobby}.v0`, site.org.orgUuid]);
      assert.deepEqual((await ok('scenequery/getPromptConfiguration', { promptUuid: made.uuid })).promptConfiguration, made);

      await ok('scenequery/selectiveUpdatePromptConfiguration', { uuid: made.uuid, shortName: 'Queue' });
      const selective = (await ok('scenequery/getPromptConfiguration', { promptUuid: made.uuid })).promptConfiguration;
      assert.deepEqual([selective.shortName, selective.name, selective.cameraConfigurations], ['Queue', 'Queue length', made.cameraConfigurations]);
      const whole = { ...selective, name: 'Desk queue', checkCondition: { operator: 'GT', value: '4' } };
      const updated = (await ok('scenequery/updatePromptConfiguration', { promptConfiguration: whole })).promptConfiguration;
      assert.deepEqual([updated.name, updated.shortName, updated.checkCondition.value], ['Desk queue', 'Queue', '4']);
      const listed = (await ok('scenequery/findPromptConfigurations')).promptConfigurations;
      assert.deepEqual(
        listed.map((p: any) => p.uuid),
        [made.uuid],
      );
      assert.deepEqual((await ok('scenequery/findPromptConfigurations', {}, { key: other.org.apiKey })).promptConfigurations, []);

      const nobody = nobodysUuid();
      assertSameAsMissing(
        await call('scenequery/createPromptConfiguration', {
          promptConfiguration: { name: 'x', prompt: 'x', promptType: 'COUNT', cameraConfigurations: [{ cameraUuid: other.lobby }] },
        }),
        await call('scenequery/createPromptConfiguration', {
          promptConfiguration: { name: 'x', prompt: 'x', promptType: 'COUNT', cameraConfigurations: [{ cameraUuid: nobody }] },
        }),
        [other.lobby, nobody],
      );
      assertFails(
        await call('scenequery/createPromptConfiguration', {
          promptConfiguration: { name: 'x', prompt: 'x', promptType: 'COUNT', checkCondition: { operator: 'CONTAINS', value: 'a' } },
        }),
        /CONTAINS checks TEXT prompts only/,
      );
      assertFails(
        await call('scenequery/createPromptConfiguration', {
          promptConfiguration: { name: 'x', prompt: 'x', promptType: 'BOOLEAN', checkCondition: { operator: 'GT', value: '1' } },
        }),
        /BOOLEAN prompt is checked with EQ true or EQ false/,
      );
      for (const path of ['getPromptConfiguration', 'deletePromptConfiguration'])
        assertSameAsMissing(
          await call(`scenequery/${path}`, { promptUuid: made.uuid }, { key: other.org.apiKey }),
          await call(`scenequery/${path}`, { promptUuid: nobodysUuid() }, { key: other.org.apiKey }),
        );
      assertSameAsMissing(
        await call('scenequery/selectiveUpdatePromptConfiguration', { uuid: made.uuid, name: 'theirs' }, { key: other.org.apiKey }),
        await call('scenequery/selectiveUpdatePromptConfiguration', { uuid: nobodysUuid(), name: 'theirs' }, { key: other.org.apiKey }),
      );
      const deletion = await changesDuring(server, () => ok('scenequery/deletePromptConfiguration', { promptUuid: made.uuid }));
      assert.equal(deletion.find((c) => c.entity === 'PROMPT_CONFIGURATION')?.type, 'DELETE');
      assertFails(await call('scenequery/getPromptConfiguration', { promptUuid: made.uuid }), 'Prompt configuration not found');
      assert.equal((await call('scenequery/createPromptConfiguration', { promptConfiguration: { name: 'x', prompt: 'x', promptType: 'MAYBE' } })).status, 400);
    });
  });

  describe('adHocPrompt, triggerPrompt', () => {
    it("asks the scene analyzer about the camera's frame, records the answer and raises an alert when the condition is met", async () => {
      const queue = await create({
        name: 'Queue',
        prompt: 'How many people queue?',
        promptType: 'COUNT',
        cameraConfigurations: [{ cameraUuid: site.lobby, promptExtension: 'Count only adults.', checkConditionOverride: { operator: 'GTE', value: '3' } }],
      });
      let event: any;
      const changes = await changesDuring(server, async () => {
        event = (await ok('scenequery/adHocPrompt', { deviceFacetUuid: `${site.lobby}.v0`, promptUuid: queue.uuid })).event;
      });
      assert.deepEqual([event.value, event.checkCondition, event.prompt], ['3', true, 'How many people queue? Count only adults.']);
      const asked = analyzer.requests.at(-1)!.json;
      assert.deepEqual([asked.orgUuid, asked.cameraUuid, asked.promptType, asked.prompt], [site.org.orgUuid, `${site.lobby}.v0`, 'COUNT', event.prompt]);
      const frame = await decodeMedia(Buffer.from(asked.image.base64, 'base64'), 'jpg');
      assert.deepEqual([frame.codec, frame.width, frame.height], ['mjpeg', 640, 360]);
      assert.equal(changes.find((c) => c.entity === 'CUSTOM_EVENT')?.entityUuid, event.uuid);
      const alert = changes.find((c) => c.entity === 'POLICY_ALERT')?.update as any;
      assert.deepEqual(
        [alert.policyAlertTriggers, alert.cllmPromptUuid, alert.cllmIntegerValue, alert.deviceUuid],
        [['CUSTOM_LLM_THRESHOLD_EXCEEDED_HIGH'], queue.uuid, 3, site.lobby],
      );

      // The dock has no condition: recorded, no alert.
      const quiet = await changesDuring(server, () => ok('scenequery/adHocPrompt', { deviceFacetUuid: site.dock, promptUuid: queue.uuid }));
      assert.equal(quiet.filter((c) => c.entity === 'POLICY_ALERT').length, 0);
      assert.equal((quiet.find((c) => c.entity === 'CUSTOM_EVENT')?.update as any).checkCondition, null);

      answers.COUNT = 'a few';
      assertFails(await call('scenequery/adHocPrompt', { deviceFacetUuid: site.lobby, promptUuid: queue.uuid }), /is not a whole number/);
      answers.COUNT = 500;
      assertFails(await call('scenequery/adHocPrompt', { deviceFacetUuid: site.lobby, promptUuid: queue.uuid }), /the scene analyzer did not answer: HTTP 500/);
      answers.COUNT = '3';
      assertSameAsMissing(
        await call('scenequery/adHocPrompt', { deviceFacetUuid: other.lobby, promptUuid: queue.uuid }),
        await call('scenequery/adHocPrompt', { deviceFacetUuid: nobodysUuid(), promptUuid: queue.uuid }),
      );
      assertSameAsMissing(
        await call('scenequery/adHocPrompt', { deviceFacetUuid: other.lobby, promptUuid: queue.uuid }, { key: other.org.apiKey }),
        await call('scenequery/adHocPrompt', { deviceFacetUuid: other.lobby, promptUuid: nobodysUuid() }, { key: other.org.apiKey }),
      );

      const before = (await ok('report/getCustomEventsReport', { startTimeMs: 0, endTimeMs: Date.now() + MIN })).timeSeriesDataPoints;
      const free = (await ok('scenequery/triggerPrompt', { deviceFacetUuid: site.dock, prompt: 'What is parked?', promptType: 'TEXT' })).event;
      assert.deepEqual([free.value, free.prompt, free.uuid], ['A red van', 'What is parked?', null]);
      assert.deepEqual(
        (await ok('report/getCustomEventsReport', { startTimeMs: 0, endTimeMs: Date.now() + MIN })).timeSeriesDataPoints,
        before,
        'nothing recorded',
      );
    });
  });

  describe('simulate custom-event and the custom-event reports', () => {
    it('lists the answers by camera and prompt, with every filter, and counts them in buckets on the local wall clock across a DST change', async () => {
      const s = await seedEventsSite(server, 'Reports Org');
      const propped = await create(
        { name: 'Door propped', prompt: 'Is the door propped open?', promptType: 'BOOLEAN', checkCondition: { operator: 'EQ', value: 'true' } },
        s,
      );
      const people = await create(
        { name: 'People', prompt: 'How many people?', promptType: 'COUNT', active: false, checkCondition: { operator: 'GT', value: '1' } },
        s,
      );
      const raised = await answer(propped.uuid, s.lobby, 'true', MAR9 + 60 * MIN);
      assert.deepEqual(raised.policyAlert.policyAlertTriggers, ['CUSTOM_LLM_BOOLEAN_TRUE']);
      assert.equal(raised.policyAlert.cllmBooleanValue, true);
      assert.equal((await answer(propped.uuid, s.lobby, 'no', MAR9 + 90 * MIN)).policyAlert, null);
      // 23:30 on 10 March in New York, and 00:30 on 11 March (after the clocks went forward).
      await answer(propped.uuid, s.lobby, 'true', MAR11 - 30 * MIN);
      await answer(propped.uuid, s.lobby, 'false', MAR11 + 30 * MIN);
      await answer(propped.uuid, s.dock, 'true', MAR10 + 10 * MIN);
      assert.equal((await answer(people.uuid, s.dock, '4', MAR10 + 20 * MIN)).policyAlert, null, 'an inactive prompt raises no alert');
      await answer(people.uuid, s.dock, '2', MAR10 + 30 * MIN);
      await answer(people.uuid, s.dock, '9', MAR11 + 40 * MIN);
      const foreign = await control(server, '/simulate/custom-event', { camera: other.lobby, prompt: propped.uuid, value: 'true', at: MAR10 });
      assert.equal(foreign.json.errorMsg, 'Prompt configuration not found', "a camera does not answer another organization's prompt");
      assert.deepEqual((await ok('report/getCustomEventsReport', { startTimeMs: MAR9, endTimeMs: MAR12 }, { key: other.org.apiKey })).timeSeriesDataPoints, []);

      const range = { startTimeMs: MAR9, endTimeMs: MAR12 };
      const report = (await ok('report/getCustomEventsReport', range, { key: s.org.apiKey })).timeSeriesDataPoints;
      assert.deepEqual(
        report.map((r: any) => [r.deviceFacetUuid, r.promptUuid, r.promptType, r.events.map((e: any) => e.value)]),
        [
          [`${s.dock}.v0`, people.uuid, 'COUNT', ['4', '2', '9']],
          [`${s.dock}.v0`, propped.uuid, 'BOOLEAN', ['true']],
          [`${s.lobby}.v0`, propped.uuid, 'BOOLEAN', ['true', 'false', 'true', 'false']],
        ].sort((a: any, b: any) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`)),
      );
      assert.equal(report[0].events[0].checkCondition, null, 'no check results without extendedResponse');
      const extended = (
        await ok(
          'report/getCustomEventsReport',
          { ...range, promptUuid: propped.uuid, deviceFacetUuids: [`${s.lobby}.v0`], extendedResponse: true },
          { key: s.org.apiKey },
        )
      ).timeSeriesDataPoints;
      assert.deepEqual(
        extended[0].events.map((e: any) => [e.timestampMs, e.checkCondition, e.prompt]),
        [
          [MAR9 + 60 * MIN, true, 'Is the door propped open?'],
          [MAR9 + 90 * MIN, false, 'Is the door propped open?'],
          [MAR11 - 30 * MIN, true, 'Is the door propped open?'],
          [MAR11 + 30 * MIN, false, 'Is the door propped open?'],
        ],
      );
      assert.equal(extended.length, 1);
      const atHq = (await ok('report/getCustomEventsReport', { ...range, locationUuid: raised.customEvent.locationUuid }, { key: s.org.apiKey }))
        .timeSeriesDataPoints;
      assert.equal(atHq.length, 3, 'every camera of the site is at HQ');
      assertSameAsMissing(
        await call('report/getCustomEventsReport', { ...range, locationUuid: raised.customEvent.locationUuid }, { key: other.org.apiKey }),
        await call('report/getCustomEventsReport', { ...range, locationUuid: nobodysUuid() }, { key: other.org.apiKey }),
      );
      assert.deepEqual(
        (await ok('report/getCustomEventsReport', { ...range, endTimeMs: MAR9 + 60 * MIN }, { key: s.org.apiKey })).timeSeriesDataPoints,
        [],
        'the end is exclusive',
      );
      assertSameAsMissing(
        await call('report/getCustomEventsReport', { ...range, promptUuid: propped.uuid }),
        await call('report/getCustomEventsReport', { ...range, promptUuid: nobodysUuid() }),
      );
      assertFails(
        await call('report/getCustomEventsReport', { startTimeMs: MAR12, endTimeMs: MAR9 }, { key: s.org.apiKey }),
        'startTimeMs must not be after endTimeMs',
      );

      const binary = (await ok('report/getCustomEventsBinaryCounts', { ...range, promptUuid: propped.uuid, interval: 'DAILY' }, { key: s.org.apiKey })).reports;
      assert.deepEqual(
        binary[`${s.lobby}.v0`].map((b: any) => [b.localDate, b.timestampMs, b.eventCount, b.true, b.false]),
        [
          ['2024-03-09T00:00:00', MAR9, 2, 1, 1],
          ['2024-03-10T00:00:00', MAR10, 1, 1, 0],
          ['2024-03-11T00:00:00', MAR11, 1, 0, 1],
        ],
      );
      const first = binary[`${s.lobby}.v0`][0];
      assert.deepEqual([first.minValueTimestampMs, first.maxValueTimestampMs, first.utcDate], [MAR9 + 90 * MIN, MAR9 + 60 * MIN, new Date(MAR9).toISOString()]);
      assert.deepEqual(
        binary[`${s.dock}.v0`].map((b: any) => b.true),
        [0, 1, 0],
      );
      const utc = (
        await ok('report/getCustomEventsBinaryCounts', { ...range, promptUuid: propped.uuid, interval: 'DAILY', timeZone: 'UTC' }, { key: s.org.apiKey })
      ).reports;
      assert.deepEqual(
        utc[`${s.lobby}.v0`].map((b: any) => [b.localDate, b.eventCount]),
        [
          ['2024-03-09T00:00:00', 2],
          ['2024-03-10T00:00:00', 0],
          ['2024-03-11T00:00:00', 2],
          ['2024-03-12T00:00:00', 0],
        ],
      );
      const whole = (await ok('report/getCustomEventsBinaryCounts', { ...range, promptUuid: propped.uuid }, { key: s.org.apiKey })).reports;
      assert.deepEqual(
        whole[`${s.lobby}.v0`].map((b: any) => [b.timestampMs, b.true, b.false]),
        [[MAR9, 2, 2]],
      );

      const numeric = (await ok('report/getCustomEventsNumericCounts', { ...range, promptUuid: people.uuid, interval: 'DAILY' }, { key: s.org.apiKey }))
        .reports;
      assert.deepEqual(Object.keys(numeric), [`${s.dock}.v0`]);
      assert.deepEqual(
        numeric[`${s.dock}.v0`].map((b: any) => [b.eventCount, b.sum, b.min, b.max, b.average, b.minValueTimestampMs, b.maxValueTimestampMs]),
        [
          [0, 0, null, null, null, null, null],
          [2, 6, 2, 4, 3, MAR10 + 30 * MIN, MAR10 + 20 * MIN],
          [1, 9, 9, 9, 9, MAR11 + 40 * MIN, MAR11 + 40 * MIN],
        ],
      );
      assertFails(
        await call('report/getCustomEventsNumericCounts', { ...range, promptUuid: propped.uuid }, { key: s.org.apiKey }),
        /counts COUNT and PERCENT prompts; this prompt is BOOLEAN/,
      );
      assertFails(
        await call('report/getCustomEventsBinaryCounts', { ...range, promptUuid: people.uuid }, { key: s.org.apiKey }),
        /counts BOOLEAN prompts; this prompt is COUNT/,
      );
      assertFails(
        await call('report/getCustomEventsBinaryCounts', { ...range, promptUuid: propped.uuid, timeZone: 'Mars/Olympus' }, { key: s.org.apiKey }),
        /not a known IANA time zone/,
      );
      assertSameAsMissing(
        await call('report/getCustomEventsBinaryCounts', { ...range, promptUuid: propped.uuid }, { key: other.org.apiKey }),
        await call('report/getCustomEventsBinaryCounts', { ...range, promptUuid: nobodysUuid() }, { key: other.org.apiKey }),
      );
    });
  });

  describe('scenequery/optimizePromptChat', () => {
    it("improves a prompt through the analytics system, with the camera's picture; another organization's camera is unknown", async () => {
      const context = { deviceFacetUuid: `${site.lobby}.v0`, originalPrompt: 'How many people?', originalAnswer: '7', expectedAnswer: '3', timestampMs: MAR11 };
      const advice = await ok('scenequery/optimizePromptChat', {
        context,
        history: [{ role: 'user', text: 'Children were counted' }],
        currentMessage: 'Fix it',
      });
      assert.deepEqual([advice.optimizedPrompt, advice.explanation], ['How many people? Count only adults.', 'narrower']);
      const r = await call('scenequery/optimizePromptChat', { context: { ...context, deviceFacetUuid: `${other.lobby}.v0` } });
      assertFails(r, /not found/);
    });
  });
});
