/**
 * The composition root of the services' dependencies: the store (migrated), the bus, secrets, caches. Kept
 * apart from src/app.ts (the listeners) so that a CLI command that only needs the store does not load the
 * HTTP app and every route.
 */
import { registrationsForgetLocation } from './domains/orgs/registrations/service.js';
import { randomBytes } from 'node:crypto';
import type { Bus, BusConnection } from './bus/bus.js';
import { connectBus } from './bus/open-bus.js';
import { systemClock, type Clock } from './clock.js';
import { readOrCreateSecretFile } from './data-dir.js';
import { doorsUsingSchedule } from './domains/access/schedule-usage.js';
import { rulesUsingSchedule } from './domains/rules/rules.service.js';
import { grantsForgetDoor, grantsForgetUser, grantsUsingSchedule, rulesAtLocation } from './domains/access/grants/service.js';
import { exceptionsForgetDoor } from './domains/access/exceptions/service.js';
import { guestPassesForgetDoor } from './domains/access/guest-passes/service.js';
import { archivingUsingSchedule } from './domains/devices/cloud-archiving/service.js';
import { policiesUsingSchedule } from './domains/policies/service.js';
import { generalRulesUsingSchedule } from './domains/rules/general/service.js';
import { componentsForgetDevice, doorsForgetDevice } from './domains/access/forget-device.js';
import { devicesForgetDevice } from './domains/devices/lifecycle/service.js';
import { relaysForgetDevice } from './domains/devices/relays/third-party.service.js';
import { rawStreamsForgetDevice } from './domains/devices/live-shares/raw-http-streams.service.js';
import { liveSharesForgetDevice } from './domains/devices/live-shares/service.js';
import { cameraConfigOptions } from './domains/devices/cameras/camera-fleet.service.js';
import { rulesForgetDevice, rulesForgetRecord } from './domains/rules/forget-device.js';
import { snoozesForgetDevice, snoozesForgetDoor, snoozesForgetLocation, snoozesForgetUser } from './domains/notifications/snoozes.service.js';
import { credentialsForgetUser } from './domains/access/credentials/service.js';
import { clipsForget } from './domains/events/clips/saved-clips.service.js';
import { profilePhotosForgetUser } from './domains/orgs/uploads/service.js';
import { findLockdownPlanUuids, lockdownPlansForget, plansAtLocation } from './domains/access/lockdowns/lockdown-plans.js';
import { notificationsForgetLocation, notificationsForgetPrompt } from './domains/notifications/service.js';
import { doorsAtLocation, findDoorUuids } from './domains/access/service.js';
import { archivingForgetsDevice } from './domains/devices/cloud-archiving/service.js';
import { licensesForgetDevice, licensesForgetDoor } from './domains/access/licenses/service.js';
import { webhooksForgetDevice } from './domains/integrations/webhooks/events.js';
import { createMediaHost } from './footage/media-host.js';
import { createKeyCache } from './domains/orgs/keys/key-cache.js';
import { createRightsCache } from './domains/orgs/permissions/rights-cache.js';
import { createLogger, type Logger } from './logger.js';
import { createSecretBox, parseSecretKey } from './secrets.js';
import { openStore } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { verifySecretKey } from './store/secret-key-check.js';
import type { StreamOptions } from './streaming/options.js';
import { storeIdentity } from './domains/changes/service.js';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { findCameraUuids, findDeviceUuids, findLocationUuids } from './domains/devices/service.js';
import { findScheduleUuids } from './domains/schedules/service.js';
import { policyFinder } from './domains/policies/service.js';
import { findButtonRuleUuids } from './domains/rules/rules.service.js';
import { findUserUuids } from './domains/orgs/service.js';
import { findPermissionGroupUuids } from './domains/orgs/permissions/service.js';
import { accessGroupsForgetLocation, accessGroupsForgetUser, findAccessGroupUuids } from './domains/access/groups/service.js';
import { guestsAtLocation, guestsForgetHost } from './domains/guests/guests.service.js';
import { policyWindowsForget, policyWindowsForgetDevice } from './domains/policies/windows.service.js';
import { findPromptUuids, promptsUsingSchedule } from './domains/events/scene-queries/service.js';
import { findComponentUuids } from './domains/access/components/service.js';

export interface StartOptions {
  log?: Logger;
  clock?: Clock;
  /** Limits and timings of the stream (defaults in src/streaming/options.ts). */
  stream?: Partial<StreamOptions>;
}

/** Opens the store (migrated) and the bus, and builds the services' dependencies: the composition root. */
export async function openDeps(config: Config, options: StartOptions = {}): Promise<Deps> {
  const log = options.log ?? createLogger(config.logLevel);
  const store = openStore(config.databaseUrl, (err) => log.error({ err }, 'store: background work failed'));
  // The bus is reached first, while the store migrates, so that an unreachable Redis ends the start at once.
  const connecting = connectBus(config.busUrl, log);
  const migrating = migrateToLatest(store);
  migrating.catch(() => {});
  let bus: Bus;
  let connection: BusConnection | null = null;
  try {
    connection = await connecting;
    await migrating;
    // The bus namespace: configured, else the store's own identity, so that deployments on one Redis stay apart.
    bus = await connection.open(config.busNamespace ?? (await storeIdentity({ store })));
  } catch (e) {
    connection?.close();
    await migrating.catch(() => {});
    await store.close();
    throw e;
  }
  const secretKey = config.secretKey ?? readOrCreateSecretFile(config.dataDir, 'secret.key', () => randomBytes(32).toString('hex'));
  const secrets = createSecretBox(parseSecretKey(secretKey));
  const clock = options.clock ?? systemClock;
  // An instance whose key cannot open the store's secrets would answer 500s: it refuses to start instead.
  await verifySecretKey(store, secrets, clock.now()).catch(async (e) => {
    await Promise.allSettled([bus.close(), store.close()]);
    throw e;
  });
  // The domains whose records name a record of each kind: deleting it takes it out of them, in the same transaction.
  const recordCleaners: Deps['recordCleaners'] = {
    user: [
      credentialsForgetUser,
      accessGroupsForgetUser,
      grantsForgetUser,
      snoozesForgetUser,
      clipsForget('allowedUsers'),
      lockdownPlansForget('userUuids'),
      profilePhotosForgetUser({ config }),
      guestsForgetHost,
    ],
    permissionGroup: [clipsForget('allowedRoles')],
    accessGroup: [lockdownPlansForget('groupUuids')],
    prompt: [notificationsForgetPrompt, rulesForgetRecord({ secrets })],
    lockdownPlan: [rulesForgetRecord({ secrets })],
    component: [rulesForgetRecord({ secrets })],
    door: [
      rulesForgetRecord({ secrets }),
      grantsForgetDoor,
      exceptionsForgetDoor,
      guestPassesForgetDoor,
      policyWindowsForget,
      snoozesForgetDoor,
      licensesForgetDoor,
    ],
    location: [registrationsForgetLocation, accessGroupsForgetLocation, notificationsForgetLocation, snoozesForgetLocation, policyWindowsForget],
  };
  return {
    config,
    store,
    bus,
    log,
    clock,
    secrets,
    keyCache: createKeyCache(),
    mediaHost: createMediaHost(config),
    rightsCache: createRightsCache(),
    // The domains whose records follow schedules: deleting a schedule they use is refused.
    scheduleUsage: [
      doorsUsingSchedule,
      rulesUsingSchedule,
      archivingUsingSchedule,
      grantsUsingSchedule,
      policiesUsingSchedule,
      generalRulesUsingSchedule,
      promptsUsingSchedule,
    ],
    // The domains whose records name devices: deleting a device takes it out of them, in the same transaction.
    deviceReferences: [
      devicesForgetDevice,
      liveSharesForgetDevice,
      rawStreamsForgetDevice({ secrets }),
      doorsForgetDevice,
      componentsForgetDevice({ recordCleaners }),
      relaysForgetDevice,
      rulesForgetDevice({ secrets }),
      snoozesForgetDevice,
      policyWindowsForgetDevice,
      archivingForgetsDevice,
      webhooksForgetDevice,
      licensesForgetDevice,
    ],
    recordCleaners,
    // The domains whose records stand at a location (a door, a grant, a lockdown plan, a guest): deleting a location they use is refused.
    locationUsage: [doorsAtLocation, rulesAtLocation, plansAtLocation, guestsAtLocation],
    // getOrgV2's camera settings by model: the organizations domain answers them, the devices domain keeps the cameras.
    cameraConfigOptions,
    // The domains that keep the records others name by id: a domain below checks an id with the finder of the one above.
    recordFinders: {
      location: findLocationUuids,
      cameraPolicy: policyFinder('CAMERA_POLICY'),
      audioPolicy: policyFinder('AUDIO_POLICY'),
      climatePolicy: policyFinder('CLIMATE_POLICY'),
      occupancyPolicy: policyFinder('OCCUPANCY_POLICY'),
      proximityPolicy: policyFinder('PROXIMITY_POLICY'),
      videoIntercomPolicy: policyFinder('VIDEO_INTERCOM_POLICY'),
      buttonRule: findButtonRuleUuids,
      user: findUserUuids,
      permissionGroup: findPermissionGroupUuids,
      accessGroup: findAccessGroupUuids,
      prompt: findPromptUuids,
      device: findDeviceUuids,
      component: findComponentUuids,
      camera: findCameraUuids,
      door: findDoorUuids,
      schedule: findScheduleUuids,
      lockdownPlan: findLockdownPlanUuids,
    },
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.bus.close();
  await deps.store.close();
}
