import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, keyForUser, readOnlyKey, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { waitFor } from '../../helpers/wait.js';

const SITE = `
locations: [{name: HQ, timeZone: America/New_York}, {name: Annex, timeZone: Europe/Paris}]
cameras: [{name: Lobby, location: HQ}, {name: Yard, location: HQ}, {name: Annex Cam, location: Annex}]
permissionGroups: [{name: Annex only, functionality: [], locations: [Annex]}]
users: [{name: Alice}, {name: Bob}, {name: Carol, group: Annex only}, {name: Dave}]
`;

/** Monday 8 January 2024 at 10:00 and 08:00 in New York. */
const MONDAY_10AM_NY = Date.UTC(2024, 0, 8, 15, 0);
const MONDAY_8AM_NY = Date.UTC(2024, 0, 8, 13, 0);
const WORK_HOURS = { minuteOfDayStartInclusive: 9 * 60, minuteOfDayStopExclusive: 17 * 60 };

forEachDialect('POST /api/customer/* notification settings and snoozes, and the notifications they shape', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let otherSite: Record<string, Record<string, string>>;
  let keys: Record<'Alice' | 'Bob' | 'Dave', string>;
  let watch: Awaited<ReturnType<typeof watchChanges>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Notify Inc');
    other = await server.createOrg('Other Org');
    site = await seedYaml(server, org.orgUuid, SITE);
    otherSite = await seedYaml(server, other.orgUuid, 'locations: [{name: Far}]\ncameras: [{name: Far Cam, location: Far}]\nusers: [{name: Zed}]');
    keys = {
      Alice: await keyForUser(server, org.orgUuid, site.users!.Alice!),
      Bob: await keyForUser(server, org.orgUuid, site.users!.Bob!),
      Dave: await keyForUser(server, org.orgUuid, site.users!.Dave!),
    };
    watch = await watchChanges(server, org.apiKey, org.orgUuid);
  });
  after(async () => {
    await watch.close();
    await server.close();
  });
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });
  const user = (name: string) => site.users![name]!;

  const nameOf = (uuid: string) => Object.entries(site.users!).find(([, u]) => u === uuid)?.[0] ?? 'Admin';

  /**
   * Raises an alert on a camera and answers the users notified of it. Once the expected ones are seen, a
   * write of a later position (the LLM policy) is awaited too: every notification of the alert is delivered
   * before it, so that one that should not have been sent would show.
   */
  async function alertNotifies(camera: string, at: number, expected: string[]): Promise<string[]> {
    const r = await control(server, '/simulate/alert', { device: site.cameras![camera], trigger: 'MOTION_HUMAN', at });
    assert.equal(r.json.error, false, r.text);
    const alertUuid = r.json.policyAlert.uuid;
    const notified = () =>
      watch
        .bodies()
        .filter((c) => c.entity === 'USER_NOTIFICATION' && c.update.sourceUuid === alertUuid)
        .map((c) => nameOf(c.update.userUuid))
        .sort();
    await waitFor(`the notifications of ${expected.join(', ')}`, () => expected.every((n) => notified().includes(n)));
    const markers = () => watch.bodies().filter((c) => c.entity === 'ORG_SETTINGS').length;
    const before = markers();
    assertOk(await call('/api/org/updateOrgLLMUsagePolicy', { llmUsageEnabled: false }));
    await waitFor('the later change', () => markers() > before);
    return notified();
  }

  it("sets a user's own settings, read back as they take effect, and the organization's template", async () => {
    const frames = [
      { days: ['MONDAY'], interval: WORK_HOURS, mediums: ['APP', 'EMAIL'], rows: [{ activities: ['MOTION_HUMAN'], devices: [`${site.cameras!.Lobby}.v0`] }] },
    ];
    assertOk(await call('/api/customer/updateCurrentUserNotificationSettings', { timeFrames: frames, smsPhoneNumbers: ['+1 555 0100'] }, keys.Alice));
    await watch.waitFor((c) => c.entity === 'USER_SETTINGS' && c.update.userUuid === user('Alice'), "Alice's USER_SETTINGS change");
    const alice = (await call('/api/user/getUserNotificationSettings', { userUuid: user('Alice') })).json.notificationSettings;
    assert.deepEqual([alice.followsOrgTemplate, alice.timeFrames[0].mediums, alice.smsPhoneNumbers], [false, ['APP', 'EMAIL'], ['+1 555 0100']]);
    assertOk(await call('/api/user/updateUserNotificationSettings', { userUuid: user('Dave'), timeFrames: [] }));
    const template = [{ mediums: ['APP'], rows: [{ activities: ['MOTION_HUMAN'], locations: [site.locations!.HQ, site.locations!.Annex] }] }];
    assertOk(await call('/api/org/updateOrgNotificationTemplateV2', { summaryEmailEnabled: true, templateUpdate: { timeFrames: template } }));
    const v2 = (await call('/api/org/getOrgNotificationTemplateV2', {})).json.notificationSettings;
    assert.deepEqual([v2.summaryEmailEnabled, v2.timeFrames[0].rows[0].locations.length, v2.orgUuid], [true, 2, org.orgUuid]);
    const interval = { minuteOfWeekStart: 0, minuteOfWeekStop: 60, activityTriggerMap: { FACE: ['EMAIL'] } };
    assertOk(await call('/api/org/updateOrgNotificationTemplate', { notificationIntervalsV2: [interval] }));
    assert.deepEqual((await call('/api/org/getOrgNotificationTemplate', {})).json.notificationSettings.notificationIntervalsV2, [interval]);
    const bob = (await call('/api/user/getUserNotificationSettings', { userUuid: user('Bob') })).json.notificationSettings;
    assert.deepEqual([bob.followsOrgTemplate, bob.timeFrames.length, bob.notificationIntervalsV2.length], [true, 1, 1]);
    // The other organization's template and users are its own.
    assert.deepEqual((await call('/api/org/getOrgNotificationTemplateV2', {}, other.apiKey)).json.notificationSettings.timeFrames, []);
  });

  it('refuses unknown or foreign devices, locations and users, and malformed settings', async () => {
    const foreign = [{ mediums: ['APP'], rows: [{ activities: ['MOTION_HUMAN'], devices: [otherSite.cameras!['Far Cam']] }] }];
    assertFails(await call('/api/customer/updateCurrentUserNotificationSettings', { timeFrames: foreign }, keys.Alice), /Device .* not found/);
    assertFails(
      await call('/api/org/updateOrgNotificationTemplateV2', { templateUpdate: { timeFrames: [{ rows: [{ locations: [otherSite.locations!.Far] }] }] } }),
      /Location .* not found/,
    );
    assertFails(await call('/api/user/updateUserNotificationSettings', { userUuid: otherSite.users!.Zed, timeFrames: [] }), /User .* not found/);
    assertFails(await call('/api/user/getUserNotificationSettings', { userUuid: otherSite.users!.Zed }), /User .* not found/);
    assertFails(
      await call(
        '/api/customer/updateCurrentUserNotificationSettings',
        { timeFrames: [{ interval: { minuteOfDayStartInclusive: 600, minuteOfDayStopExclusive: 500 } }] },
        keys.Alice,
      ),
      /minuteOfDayStartInclusive must be before/,
    );
    assert.equal((await call('/api/customer/updateCurrentUserNotificationSettings', { timeFrames: [{ mediums: ['PIGEON'] }] }, keys.Alice)).status, 400);
  });

  it('notifies the users whose settings cover an alert on the wall clock of its location, within their permission group', async () => {
    assert.deepEqual(await alertNotifies('Lobby', MONDAY_10AM_NY, ['Admin', 'Alice', 'Bob']), ['Admin', 'Alice', 'Bob']);
    // 08:00 in New York is outside Alice's hours; Bob (the template) still hears of it.
    assert.deepEqual(await alertNotifies('Lobby', MONDAY_8AM_NY, ['Admin', 'Bob']), ['Admin', 'Bob']);
    // Alice's row names the Lobby only; Carol's group sees the Annex only, so she hears of the Annex.
    assert.deepEqual(await alertNotifies('Yard', MONDAY_10AM_NY, ['Admin', 'Bob']), ['Admin', 'Bob']);
    assert.deepEqual(await alertNotifies('Annex Cam', MONDAY_10AM_NY, ['Admin', 'Bob', 'Carol']), ['Admin', 'Bob', 'Carol']);
    const n = watch.bodies().find((c) => c.entity === 'USER_NOTIFICATION' && c.update.userUuid === user('Alice'))!;
    assert.deepEqual([n.update.mediums, n.update.activities, n.update.deviceUuid], [['APP', 'EMAIL'], ['MOTION_HUMAN'], site.cameras!.Lobby]);
  });

  it('snoozes a device, a location or everything for the caller only, until the snooze is deleted', async () => {
    assertOk(await call('/api/customer/snoozeDeviceNotifications', { deviceUuids: [site.cameras!.Lobby], durationSec: 3600 }, keys.Alice));
    const snoozed = (await call('/api/customer/getUserSnoozedNotificationSettings', {}, keys.Alice)).json;
    const lobbySnooze = snoozed.snoozedForDevicesMap[site.cameras!.Lobby][0];
    assert.equal(lobbySnooze.durationSecs, 3600);
    await watch.waitFor((c) => c.entity === 'NOTIFICATION_SNOOZE' && c.entityUuid === lobbySnooze.uuid, 'the NOTIFICATION_SNOOZE change');
    assert.deepEqual(await alertNotifies('Lobby', MONDAY_10AM_NY, ['Admin', 'Bob']), ['Admin', 'Bob']);
    // Bob snoozes everything, but from tomorrow: it is not in force yet.
    const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
    assertOk(await call('/api/customer/snoozeAllNotifications', { durationSec: 600, scheduledTimestampSec: tomorrow }, keys.Bob));
    const planned = (await call('/api/customer/getUserSnoozedNotificationSettings', {}, keys.Bob)).json.snoozedForAllNotificationsIntervals;
    assert.deepEqual(
      planned.map((i: any) => i.timestampSec),
      [tomorrow],
    );
    assertOk(await call('/api/customer/snoozeLocationNotifications', { locationUuids: [site.locations!.HQ], durationSec: 60 }, org.apiKey));
    assert.deepEqual(await alertNotifies('Yard', MONDAY_10AM_NY, ['Bob']), ['Bob']);
    // Others cannot end Alice's snooze; a delete of the wrong kind does not find it.
    assertFails(await call('/api/customer/deleteNotificationSnoozeSettingForDevice', { uuid: lobbySnooze.uuid }, keys.Bob), /Snooze .* not found/);
    assertFails(await call('/api/customer/deleteNotificationSnoozeSettingForLocation', { uuid: lobbySnooze.uuid }, keys.Alice), /not found/);
    assertOk(await call('/api/customer/deleteNotificationSnoozeSettingForDevice', { uuid: lobbySnooze.uuid }, keys.Alice));
    assert.deepEqual((await call('/api/customer/getUserSnoozedNotificationSettings', {}, keys.Alice)).json.snoozedForDevicesMap, {});
    assert.deepEqual(await alertNotifies('Lobby', MONDAY_10AM_NY, ['Alice', 'Bob']), ['Alice', 'Bob']);
    assertOk(await call('/api/customer/deleteAllNotificationSnoozeSettings', { uuid: planned[0].uuid }, keys.Bob));
  });

  it('refuses snoozes of unknown or foreign targets, empty ones and ones already over', async () => {
    assertFails(
      await call('/api/customer/snoozeDeviceNotifications', { deviceUuids: [otherSite.cameras!['Far Cam']], durationSec: 60 }, keys.Alice),
      /Device .* not found/,
    );
    assertFails(
      await call('/api/customer/snoozeLocationNotifications', { locationUuids: [otherSite.locations!.Far], durationSec: 60 }, keys.Alice),
      /Location .* not found/,
    );
    assertFails(
      await call('/api/customer/snoozeComponentCompositeNotifications', { componentCompositeUuids: [site.cameras!.Lobby], durationSec: 60 }, keys.Alice),
      /not found/,
    );
    assertFails(await call('/api/customer/snoozeDeviceNotifications', { durationSec: 60 }, keys.Alice), /needs at least one target/);
    assertFails(await call('/api/customer/snoozeAllNotifications', { durationSec: 60, scheduledTimestampSec: 1000 }, keys.Alice), /would be over already/);
    assert.equal((await call('/api/customer/snoozeAllNotifications', { durationSec: 0 }, keys.Alice)).status, 400);
    assert.deepEqual((await call('/api/customer/getUserSnoozedNotificationSettings', {}, other.apiKey)).json.snoozedForAllNotificationsIntervals, []);
  });

  it("lets a read-only user set their own settings and snoozes, never another's or the template", async () => {
    const reader = await readOnlyKey(server, org);
    assertOk(await call('/api/customer/updateCurrentUserNotificationSettings', { timeFrames: [] }, reader));
    assertOk(await call('/api/customer/snoozeAllNotifications', { durationSec: 60 }, reader));
    expectDenied(await call('/api/user/updateUserNotificationSettings', { userUuid: user('Bob'), timeFrames: [] }, reader));
    expectDenied(await call('/api/org/updateOrgNotificationTemplateV2', { templateUpdate: { timeFrames: [] } }, reader));
    expectDenied(await call('/api/org/updateOrgNotificationTemplate', { notificationIntervalsV2: [] }, reader));
  });
});
