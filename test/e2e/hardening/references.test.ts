import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { newRuuid } from '../../../src/ids.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestServer } from '../../helpers/server.js';
import { changesDuring, createSiteOrg, type SiteOrg } from '../config/config-site.js';

/** Each organization: two users, two roles, two access groups, a camera and a location. */
const SITE = {
  locations: [{ name: 'HQ', timeZone: 'UTC' }],
  permissionGroups: [{ name: 'Viewers' }, { name: 'Guards' }],
  users: [{ name: 'Ada Admin' }, { name: 'Bob Viewer', group: 'Viewers' }],
  accessGroups: [{ name: 'Staff', members: ['Ada Admin'] }, { name: 'Night' }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [{ name: 'Panic', kind: 'button', location: 'HQ' }],
};

interface Org extends SiteOrg {
  promptUuid: string;
}

/**
 * Which fields of a body name which kind of record, and how the operation is called: the body with an id put
 * in that field, the field's path as a refusal names it, and how to read back what the organization stores.
 */
interface Case {
  operation: string;
  kind: string;
  path: string;
  body: (org: Org, id: string) => object;
  stored: (server: TestServer, org: Org) => Promise<string>;
}

const row = (promptUuid: string) => ({
  timeFrames: [{ days: ['MONDAY'], mediums: ['EMAIL'], rows: [{ activities: ['MOTION'] }, { promptUuids: [promptUuid] }] }],
});
const asText = (value: unknown) => JSON.stringify(value);
/** A button rule whose action asks a prompt (and raises an alert, which stays when the prompt goes). */
const askingRule = (org: SiteOrg, promptUuid: string) => ({
  rule: { ruleName: 'Ask', sensorUuid: org.site.sensors.Panic, triggerPress: 'SINGLE', action: { alertAction: true, customLLMActions: [{ promptUuid }] } },
});

const CASES: Case[] = [
  {
    operation: '/api/customer/updateCurrentUserNotificationSettings',
    kind: 'Prompt configuration',
    path: 'timeFrames[0].rows[1].promptUuids[0]',
    body: (_org, id) => row(id),
    stored: async (server, org) => {
      const me = (await server.call('/api/customer/getCurrentUser', {}, { key: org.apiKey })).json;
      return asText((await server.call('/api/user/getUserNotificationSettings', { userUuid: me.user.uuid }, { key: org.apiKey })).json);
    },
  },
  {
    operation: '/api/user/updateUserNotificationSettings',
    kind: 'Prompt configuration',
    path: 'timeFrames[0].rows[1].promptUuids[0]',
    body: (org, id) => ({ userUuid: org.site.users['Bob Viewer'], ...row(id) }),
    stored: async (server, org) =>
      asText((await server.call('/api/user/getUserNotificationSettings', { userUuid: org.site.users['Bob Viewer'] }, { key: org.apiKey })).json),
  },
  {
    operation: '/api/org/updateOrgNotificationTemplateV2',
    kind: 'Prompt configuration',
    path: 'templateUpdate.timeFrames[0].rows[1].promptUuids[0]',
    body: (_org, id) => ({ templateUpdate: row(id) }),
    stored: async (server, org) => asText((await server.call('/api/org/getOrgNotificationTemplateV2', {}, { key: org.apiKey })).json),
  },
  {
    operation: '/api/button/createRuleForButton',
    kind: 'Prompt configuration',
    path: 'rule.action.customLLMActions[0].promptUuid',
    body: askingRule,
    stored: async (server, org) => asText((await server.call('/api/button/getRulesForButton', {}, { key: org.apiKey })).json),
  },
  ...(['allowedRoles', 'allowedUsers'] as const).map((field): Case => ({
    operation: '/api/video/spliceV3',
    kind: field === 'allowedRoles' ? 'Permission group' : 'User',
    path: `accessSettings.${field}[1]`,
    body: (org, id) => ({
      deviceUuids: [org.site.cameras.Lobby],
      startTimeMillis: Date.now() - 120_000,
      durationSec: 10,
      accessSettings: {
        visibility: 'ROLE_RESTRICTED',
        [field]: [field === 'allowedRoles' ? org.site.permissionGroups.Viewers : org.site.users['Ada Admin'], id],
      },
    }),
    stored: async (server, org) => asText((await server.call('/api/event/getSavedClipsV2', {}, { key: org.apiKey })).json),
  })),
  ...(['physicalAccess', 'activationPlan'] as const).map((plan): Case => ({
    operation: '/api/accesscontrol/lockdownPlan/createLocationLockdownPlan',
    kind: 'Access control group',
    path: `lockdownPlan.${plan}.groupUuids[1]`,
    body: (org, id) => ({
      lockdownPlan: { name: `Plan ${plan} ${id.slice(0, 4)}`, locationUuid: org.site.locations.HQ, [plan]: { groupUuids: [org.site.accessGroups.Staff, id] } },
    }),
    stored: async (server, org) => asText((await server.call('/api/accesscontrol/lockdownPlan/findLockdownPlans', {}, { key: org.apiKey })).json),
  })),
];

forEachDialect('the ids a body names are resolved against the caller organization, at any depth', (dialect) => {
  const server = useTestServer(dialect);
  let mine: Org;
  let theirs: Org;
  before(async () => {
    const org = async (name: string): Promise<Org> => {
      const seeded = await createSiteOrg(server(), name, SITE);
      const { ok } = apiAs(server, seeded.apiKey);
      const prompt = await ok('/api/scenequery/createPromptConfiguration', {
        promptConfiguration: { name: 'Queue', prompt: 'How many?', promptType: 'COUNT' },
      });
      return { ...seeded, promptUuid: prompt.promptConfiguration.uuid };
    };
    mine = await org('Mine');
    theirs = await org('Theirs');
  });

  /** The record of the other organization of the case's kind. */
  const theirsOf = (c: Case) =>
    ({
      'Prompt configuration': theirs.promptUuid,
      'Permission group': theirs.site.permissionGroups.Viewers,
      User: theirs.site.users['Ada Admin'],
      'Access control group': theirs.site.accessGroups.Staff,
    })[c.kind]!;

  for (const c of CASES) {
    it(`${c.operation}: refuses another organization's ${c.kind.toLowerCase()} and a made-up one at ${c.path}, naming the field, and stores neither`, async () => {
      const { refused } = apiAs(server, () => mine.apiKey);
      const before = { mine: await c.stored(server(), mine), theirs: await c.stored(server(), theirs) };
      for (const id of [theirsOf(c), newRuuid()]) {
        assert.equal(await refused(c.operation, c.body(mine, id)), `${c.path}: ${c.kind} ${id} not found`);
      }
      assert.equal(await c.stored(server(), mine), before.mine, 'nothing of the caller changed');
      assert.equal(await c.stored(server(), theirs), before.theirs, 'nothing of the other organization changed');
      assert.ok(!(await c.stored(server(), mine)).includes(theirsOf(c)), 'no record of the caller names the foreign id');
    });
  }

  it('accepts the same bodies with the organization’s own records', async () => {
    const { ok } = apiAs(server, () => mine.apiKey);
    const own: Record<string, string> = {
      'Prompt configuration': mine.promptUuid,
      'Permission group': mine.site.permissionGroups.Guards,
      User: mine.site.users['Bob Viewer'],
      'Access control group': mine.site.accessGroups.Night,
    };
    for (const c of CASES) await ok(c.operation, c.body(mine, own[c.kind]));
    const stored = await CASES[0].stored(server(), mine);
    assert.ok(stored.includes(mine.promptUuid), stored);
  });

  it('a deleted user, role, access group or prompt leaves every record that named it (clips, plans, groups, grants, settings, rules), each change announced', async () => {
    const org = await createSiteOrg(server(), 'Forgetful', SITE);
    const { ok } = apiAs(server, org.apiKey);
    const [bob, guards, night] = [org.site.users['Bob Viewer'], org.site.permissionGroups.Guards, org.site.accessGroups.Night];
    const prompt = (await ok('/api/scenequery/createPromptConfiguration', { promptConfiguration: { name: 'Q', prompt: 'How many?', promptType: 'COUNT' } }))
      .promptConfiguration.uuid;
    await ok('/api/user/updateUserNotificationSettings', { userUuid: bob, ...row(prompt) });
    await ok('/api/org/updateOrgNotificationTemplateV2', { templateUpdate: row(prompt) });
    await ok('/api/button/createRuleForButton', askingRule(org, prompt));
    await ok('/api/video/spliceV3', {
      deviceUuids: [org.site.cameras.Lobby],
      startTimeMillis: Date.now() - 120_000,
      durationSec: 10,
      accessSettings: { visibility: 'ROLE_RESTRICTED', allowedRoles: [guards], allowedUsers: [bob, org.site.users['Ada Admin']] },
    });
    const clip = async () => (await ok('/api/event/getSavedClipsV2', {})).savedClips[0];
    const plan = (
      await ok('/api/accesscontrol/lockdownPlan/createLocationLockdownPlan', {
        lockdownPlan: {
          name: 'Drill',
          locationUuid: org.site.locations.HQ,
          physicalAccess: { userUuids: [bob], groupUuids: [night, org.site.accessGroups.Staff] },
          activationPlan: { groupUuids: [night] },
        },
      })
    ).lockdownPlan;
    const planNow = async () => (await ok('/api/accesscontrol/lockdownPlan/findLockdownPlans', {})).lockdownPlans.find((p: any) => p.uuid === plan.uuid);
    const changed = async (fn: () => Promise<unknown>) => (await changesDuring(server(), fn)).map((e) => `${e.entity} ${e.type}`);

    const onPrompt = await changed(() => ok('/api/scenequery/deletePromptConfiguration', { promptUuid: prompt }));
    assert.ok(
      ['ORG_NOTIFICATION_TEMPLATE', 'USER_SETTINGS', 'BUTTON_RULE'].every((e) => onPrompt.includes(`${e} UPDATE`)),
      onPrompt.join(),
    );
    const [rule] = (await ok('/api/button/getRulesForButton', {})).rules;
    assert.deepEqual([rule.action.alertAction, rule.action.customLLMActions ?? []], [true, []], 'the rule lets the prompt go and keeps its alert');
    assert.ok(!asText(await ok('/api/user/getUserNotificationSettings', { userUuid: bob })).includes(prompt), 'the user’s settings let the prompt go');
    assert.ok(!asText(await ok('/api/org/getOrgNotificationTemplateV2', {})).includes(prompt), 'the template lets the prompt go');

    const staff = org.site.accessGroups.Staff;
    await ok('/api/accesscontrol/addUsersToAccessControlGroup', { groupUuid: staff, userUuids: [bob] });
    const grant = (
      await ok('/api/accesscontrol/createAccessGrant', {
        accessGrant: { name: 'Bob and staff', locationUuid: org.site.locations.HQ, userUuids: [bob], groupUuids: [staff] },
      })
    ).accessGrant.uuid;
    const members = async () =>
      (await ok('/api/accesscontrol/findAllUsersForAccessControlGroup', { groupUuid: staff })).groupMembers.map((m: any) => m.userUuid);

    const guest = { email: 'visitor@example.com', locationUuid: org.site.locations.HQ, hostUserUuid: bob };
    await ok('/api/guestmanagement/createGuest', { guest });

    const onUser = await changed(() => ok('/api/user/deleteUser', { userUuid: bob }));
    assert.ok(
      ['SAVED_CLIP UPDATE', 'LOCKDOWN_PLAN UPDATE', 'ACCESS_CONTROL_GROUP_MEMBERS DELETE', 'LOCATION_ACCESS_GRANT UPDATE', 'GUEST UPDATE'].every((e) =>
        onUser.includes(e),
      ),
      onUser.join(),
    );
    const host = (await ok('/api/guestmanagement/getGuest', { email: guest.email })).guest;
    assert.deepEqual([host.locationUuid, host.hostUserUuid], [org.site.locations.HQ, undefined], 'the guest stays, with no host');
    assert.deepEqual((await clip()).accessSettings.allowedUsers, [org.site.users['Ada Admin']]);
    assert.deepEqual((await planNow()).physicalAccess.userUuids, []);
    assert.deepEqual(await members(), [org.site.users['Ada Admin']], 'the user leaves the access group');
    const kept = (await ok('/api/accesscontrol/getLocationAccessGrant', { accessGrantUuid: grant })).accessGrant;
    assert.deepEqual([kept.userUuids, kept.groupUuids], [[], [staff]], 'the grant lets the user go and keeps its group');

    await ok('/api/permission/deletePermissionGroup', { groupUuid: guards });
    assert.deepEqual((await clip()).accessSettings.allowedRoles, []);
    const onGroup = await changed(() => ok('/api/accesscontrol/deleteAccessControlGroup', { groupUuid: night }));
    assert.ok(onGroup.includes('LOCKDOWN_PLAN UPDATE'), onGroup.join());
    assert.deepEqual([(await planNow()).physicalAccess.groupUuids, (await planNow()).activationPlan.groupUuids], [[org.site.accessGroups.Staff], []]);
  });

  it('a deleted location leaves the groups, notification settings, snoozes and pauses that named it, each change announced; refused while grants, lockdown plans or guests stand at it', async () => {
    const org = await createSiteOrg(server(), 'Moving', { ...SITE, locations: [...SITE.locations, { name: 'Annex', timeZone: 'UTC' }] });
    const { ok, refused } = apiAs(server, org.apiKey);
    const [annex, hq, bob] = [org.site.locations.Annex, org.site.locations.HQ, org.site.users['Bob Viewer']];
    const group = (await ok('/api/accesscontrol/createAccessControlGroup', { name: 'Annex staff', locationUuid: annex })).group.uuid;
    const motion = { activities: ['MOTION'] };
    await ok('/api/user/updateUserNotificationSettings', {
      userUuid: bob,
      timeFrames: [
        {
          mediums: ['EMAIL'],
          rows: [
            { ...motion, locations: [annex] },
            { ...motion, locations: [annex, hq], locationOnly: [annex], locationOnlyActivities: ['MOTION'] },
          ],
        },
      ],
    });
    const interval = (locationFilterSet: string[]) => ({
      minuteOfWeekStart: 0,
      minuteOfWeekStop: 10_080,
      activityTriggerMap: { MOTION: ['EMAIL'] },
      locationFilterSet,
    });
    await ok('/api/org/updateOrgNotificationTemplate', { notificationIntervalsV2: [interval([annex]), interval([annex, hq])] });
    const window = { durationSec: 3600 };
    await ok('/api/customer/snoozeLocationNotifications', { locationUuids: [annex], ...window });
    await ok('/api/policy/pauseAlertPolicyForLocation', { locationUuids: [annex], ...window });
    await ok('/api/policy/createPolicyAddendumForLocation', { locationUuid: annex, activities: ['MOTION'], ...window });

    const grant = (await ok('/api/accesscontrol/createAccessGrant', { accessGrant: { name: 'Annex', locationUuid: annex, userUuids: [bob] } })).accessGrant
      .uuid;
    const plan = (await ok('/api/accesscontrol/lockdownPlan/createLocationLockdownPlan', { lockdownPlan: { name: 'Annex drill', locationUuid: annex } }))
      .lockdownPlan.uuid;
    await ok('/api/guestmanagement/createGuest', { guest: { email: 'annex@example.com', locationUuid: annex } });
    assert.match(await refused('/api/location/deleteLocation', { uuid: annex }), /still has 1 grant\(s\), 1 lockdown plan\(s\), 1 guest\(s\)/);
    await ok('/api/accesscontrol/deleteLocationAccessGrant', { accessGrantUuid: grant });
    await ok('/api/accesscontrol/lockdownPlan/deleteLockdownPlan', { lockdownPlanUuid: plan });
    await ok('/api/guestmanagement/deleteGuest', { email: 'annex@example.com' });

    const onLocation = (await changesDuring(server(), () => ok('/api/location/deleteLocation', { uuid: annex }))).map((e) => `${e.entity} ${e.type}`);
    const announced = [
      'LOCATION DELETE',
      'ACCESS_CONTROL_GROUP UPDATE',
      'USER_SETTINGS UPDATE',
      'ORG_NOTIFICATION_TEMPLATE UPDATE',
      'NOTIFICATION_SNOOZE DELETE',
      'POLICY_PAUSE DELETE',
      'POLICY_ADDENDUM DELETE',
    ];
    assert.ok(
      announced.every((e) => onLocation.includes(e)),
      onLocation.join(),
    );
    const reads = await Promise.all(
      [
        ['/api/accesscontrol/findAccessControlGroupsByOrg', {}],
        ['/api/user/getUserNotificationSettings', { userUuid: bob }],
        ['/api/org/getOrgNotificationTemplate', {}],
        ['/api/customer/getUserSnoozedNotificationSettings', {}],
        ['/api/policy/getPolicyPauseSettings', {}],
        ['/api/policy/getPolicyAddendums', {}],
      ].map(([path, body]) => ok(path as string, body)),
    );
    for (const read of reads) assert.ok(!asText(read).includes(annex), asText(read));
    const [groups, settings, template] = reads;
    assert.equal(groups.groups.find((g: any) => g.uuid === group).locationUuid, null, 'the group stays, of no location');
    const [onlyAnnex, both] = settings.notificationSettings.timeFrames[0].rows;
    assert.deepEqual([onlyAnnex.activities, both.locations, both.locationOnly], [[], [hq], []], 'a row of the location alone covers nothing, not everywhere');
    assert.deepEqual(
      template.notificationSettings.notificationIntervalsV2.map((i: any) => i.locationFilterSet),
      [[hq]],
      'an interval of the location alone goes',
    );
  });

  it('a schedule a prompt runs on is not deleted (its prompt named, listed as a custom event); a deleted camera leaves no pause or addendum', async () => {
    const org = await createSiteOrg(server(), 'Scheduled', { ...SITE, schedules: [{ name: 'Nights', intervals: [{ start: 1200, stop: 1440 }] }] });
    const { ok, refused } = apiAs(server, org.apiKey);
    const nights = org.site.schedules.Nights;
    const prompt = (
      await ok('/api/scenequery/createPromptConfiguration', {
        promptConfiguration: { name: 'Night count', prompt: 'How many people?', promptType: 'COUNT', scheduleUuid: nights },
      })
    ).promptConfiguration.uuid;
    assert.equal(await refused('/api/policy/deleteSchedule', { scheduleUuid: nights }), 'Schedule "Nights" is in use by prompt "Night count"');
    assert.deepEqual((await ok('/api/schedule/getScheduleDataV2', { scheduleUuid: nights })).weeklyScheduleData.customEventUuids, [prompt]);
    await ok('/api/scenequery/deletePromptConfiguration', { promptUuid: prompt });
    await ok('/api/policy/deleteSchedule', { scheduleUuid: nights });

    const lobby = org.site.cameras.Lobby;
    const window = { durationSec: 3600 };
    await ok('/api/policy/pauseAlertPolicyForDevice', { deviceUuids: [lobby], ...window });
    await ok('/api/policy/createPolicyAddendumsForDevices', { deviceUuids: [lobby], activities: ['MOTION'], ...window });
    const onDelete = (await changesDuring(server(), () => ok('/api/camera/delete', { cameraUuid: lobby }))).map((e) => `${e.entity} ${e.type}`);
    assert.ok(
      ['POLICY_PAUSE DELETE', 'POLICY_ADDENDUM DELETE'].every((e) => onDelete.includes(e)),
      onDelete.join(),
    );
    for (const path of ['/api/policy/getPolicyPauseSettings', '/api/policy/getPolicyAddendums']) assert.ok(!asText(await ok(path, {})).includes(lobby));
  });

  it('a deleted door leaves the rules, grants, exceptions, guest passes, pauses and snoozes that named it, each change announced', async () => {
    const org = await createSiteOrg(server(), 'Doorless', {
      ...SITE,
      doors: [
        { name: 'Front', location: 'HQ' },
        { name: 'Back', location: 'HQ' },
      ],
    });
    const { ok } = apiAs(server, org.apiKey);
    const [front, back] = [org.site.doors.Front, org.site.doors.Back];
    const trigger = (doors: string[]) => ({
      type: 'DEVICE_ACTIVITY_EVENT',
      activityEvent: { activityEvent: 'AC_DPI_DOOR_OPEN' },
      componentCompositeUuids: doors,
    });
    const rule = (name: string, doors: string[]) =>
      ok('/api/rules/createRule', { rule: { name, triggers: [trigger(doors)], action: { liveNotificationAction: true } } });
    const both = (await rule('Either door', [front, back])).ruleUuid;
    const frontOnly = (await rule('Front only', [front])).ruleUuid;
    const window = { durationSec: 3600 };
    await ok('/api/policy/pauseAlertPolicyForComponentComposite', { componentCompositeUuids: [front], ...window });
    await ok('/api/customer/snoozeComponentCompositeNotifications', { componentCompositeUuids: [front], ...window });
    const hq = org.site.locations.HQ;
    const grant = (
      await ok('/api/accesscontrol/createAccessGrant', {
        accessGrant: { name: 'Both doors', locationUuid: hq, userUuids: [org.site.users['Bob Viewer']], accessControlledDoorUuids: [front, back] },
      })
    ).accessGrant.uuid;
    const exception = (
      await ok('/api/accesscontrol/doorScheduleException/createExceptionV2', {
        exception: { name: 'Holiday', doorUuids: [front, back], localStartDate: '2030-12-24', localEndDate: '2030-12-26', defaultState: 'ACCESS_CONTROLLED' },
      })
    ).exception.uuid;
    const pass = (doorUuids: string[]) =>
      ok('/api/accesscontrol/guestpass/createGuestPass', {
        guestPass: { locationUuid: hq, doorUuids, passStartTimeMs: Date.now(), passEndTimeMs: Date.now() + 3_600_000 },
      }).then((r) => r.guestPass.uuid as string);
    const [bothPass, frontPass] = [await pass([front, back]), await pass([front])];

    const onDelete = (await changesDuring(server(), () => ok('/api/component/deleteAccessControlledDoor', { accessControlledDoorUuid: front }))).map(
      (e) => `${e.entity} ${e.type} ${e.entityUuid}`,
    );
    const expected = [
      `DOOR DELETE ${front}`,
      `RULE UPDATE ${both}`,
      `RULE DELETE ${frontOnly}`,
      `LOCATION_ACCESS_GRANT UPDATE ${grant}`,
      `DOOR_SCHEDULE_EXCEPTION UPDATE ${exception}`,
      `GUEST_PASS UPDATE ${bothPass}`,
      `GUEST_PASS DELETE ${frontPass}`,
    ];
    for (const e of expected) assert.ok(onDelete.includes(e), `${e} in ${onDelete.join()}`);
    assert.ok(onDelete.some((e) => e.startsWith('POLICY_PAUSE DELETE')) && onDelete.some((e) => e.startsWith('NOTIFICATION_SNOOZE DELETE')), onDelete.join());
    const rules = (await ok('/api/rules/getRulesForOrg', {})).rules;
    assert.deepEqual(
      rules.map((r: any) => [r.uuid, r.triggers[0].componentCompositeUuids]),
      [[both, [back]]],
    );
    const reads = [
      ['/api/policy/getPolicyPauseSettings', {}],
      ['/api/customer/getUserSnoozedNotificationSettings', {}],
      ['/api/accesscontrol/getLocationAccessGrant', { accessGrantUuid: grant }],
      ['/api/accesscontrol/doorScheduleException/getExceptionV2', { exceptionUuid: exception }],
      ['/api/accesscontrol/guestpass/findGuestPasses', {}],
    ] as const;
    for (const [path, body] of reads) assert.ok(!asText(await ok(path, body)).includes(front), path);
    assert.deepEqual((await ok('/api/accesscontrol/getLocationAccessGrant', { accessGrantUuid: grant })).accessGrant.accessControlledDoorUuids, [back]);
    assert.deepEqual(
      (await ok('/api/accesscontrol/guestpass/findGuestPasses', {})).guestPasses.map((p: any) => [p.uuid, p.doorUuids]),
      [[bothPass, [back]]],
    );
  });
});
