import YAML from 'yaml';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { write, type WriteScope } from '../../bus/write.js';
import { createDoor } from '../access/service.js';
import { reviseLocation, type LocationFields } from '../devices/locations/service.js';
import { createDevices, createDiscovery, createLocation, reviseDevice, type DeviceInput, type LocationRecord } from '../devices/service.js';
import type { DeviceKind } from '../devices/tables.js';
import { createPeople } from '../faces/service.js';
import { createShipment } from '../internal/service.js';
import { createRma } from '../internal/logistics.service.js';
import { addPartnerHardware } from '../partner-clients/hardware.service.js';
import { normaliseEmail } from '../orgs/users/emails.js';
import { createUsers, getOrg } from '../orgs/service.js';
import { emailTaken, reviseUser } from '../orgs/users/service.js';
import { insertTemplate, putFields } from '../orgs/users/user-metadata.service.js';
import type { Functionality } from '../../edge/rights.js';
import { addGroup } from '../orgs/permissions/service.js';
import { insertCameraPolicy } from '../policies/service.js';
import { checkedIntervals, createSchedule, reviseSchedule, type ScheduleRecord } from '../schedules/service.js';
import { timesOf, type ScheduleTimes } from '../schedules/strategies.js';
import { seedAccess, type Kept } from './access.seed.js';
import { createAccessLockdownEntries } from './access-lockdown.js';
import { existingEntries, type Existing } from './existing.js';
import { SENSOR_KINDS, type SeedResult, type SiteFile, type SiteKind } from './schema.js';
import { controllerNameFor, DEVICE_SITE_KINDS, entryKey, siteFileProblems } from './validate.js';

type SeedDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'recordFinders'>;
export type SiteFormat = 'yaml' | 'json';

/** Reads a site file's text; YAML is the default (JSON is YAML too, but JSON.parse gives sharper messages). */
export function parseSiteText(text: string, format: SiteFormat = 'yaml'): unknown {
  try {
    return format === 'json' ? JSON.parse(text) : YAML.parse(text);
  } catch (e) {
    throw fail('INVALID_VALUE', `site file is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${(e as Error).message.split('\n')[0]}`);
  }
}

export function siteFormatOf(fileName: string): SiteFormat {
  return fileName.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

const MAX_REPORTED = 25;

/** The fields of a location entry that differ from the location the organization has; null when none does. */
function locationChanges(current: LocationRecord, entry: NonNullable<SiteFile['locations']>[number]): LocationFields | null {
  const given: LocationFields = {
    tz: entry.timeZone,
    address1: entry.address1,
    address2: entry.address2,
    city: entry.city,
    postalCode: entry.postalCode,
    countryCode: entry.countryCode,
    latitude: entry.latitude,
    longitude: entry.longitude,
  };
  const changes = Object.fromEntries(
    Object.entries(given).filter(([field, value]) => value !== undefined && value !== current[field as keyof LocationRecord]),
  ) as LocationFields;
  return Object.keys(changes).length > 0 ? changes : null;
}

function scheduleChanged(current: ScheduleRecord, fields: { times: ScheduleTimes; mutable?: boolean; oneTimeUse?: boolean }): boolean {
  return (
    JSON.stringify(timesOf(current)) !== JSON.stringify(fields.times) ||
    (fields.mutable !== undefined && fields.mutable !== current.mutable) ||
    (fields.oneTimeUse !== undefined && fields.oneTimeUse !== current.oneTimeUse)
  );
}

function refuse(problems: string[]): never {
  const shown = problems.slice(0, MAX_REPORTED);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  throw fail('INVALID_VALUE', `site file: ${shown.join('; ')}${more}`);
}

/**
 * Problems that only the organization's store can reveal: an e-mail address that another of its users has (a
 * user of the same name keeps theirs: the file is being seeded again).
 */
async function storeProblems(w: WriteScope, site: SiteFile, existing: Existing): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, u] of (site.users ?? []).entries()) {
    if (!u.email || existing.users.get(u.name)?.email === normaliseEmail(u.email)) continue;
    if (await emailTaken(w, w.actor.orgUuid, u.email)) problems.push(`users[${i}] (${u.name}).email: a user of the organization already has "${u.email}"`);
  }
  return problems;
}

const DEVICE_KIND_OF: Record<(typeof DEVICE_SITE_KINDS)[number], DeviceKind> = {
  cameras: 'CAMERA',
  sensors: 'BUTTON',
  doorControllers: 'DOOR_CONTROLLER',
  audioGateways: 'AUDIO_GATEWAY',
  elevatorLandings: 'ELEVATOR_LANDING',
  relays: 'RELAY',
  nvrs: 'NVR',
};

/**
 * Loads a site file into an organization: validates all of it first (every problem names its entry and
 * field), then creates everything in ONE transaction, so a bad file changes nothing. An entry the
 * organization already has by name (src/domains/sites/existing.ts) is updated or kept, never made twice, so
 * seeding the same file again changes nothing. Answers the UUIDs by kind and name.
 */
export async function seedSite(deps: SeedDeps, orgUuid: string, site: unknown, operation = 'site.seed'): Promise<SeedResult> {
  await getOrg(deps, { orgUuid });
  const problems = siteFileProblems(site);
  if (problems.length > 0) refuse(problems);
  const file = site as SiteFile;
  return write(deps, systemActor(orgUuid, operation), async (w) => {
    const existing = await existingEntries(w, file);
    const fromStore = await storeProblems(w, file, existing);
    if (fromStore.length > 0) refuse(fromStore);
    return createSite(deps, w, file, existing);
  });
}

export async function seedSiteText(deps: SeedDeps, orgUuid: string, text: string, format: SiteFormat, operation?: string): Promise<SeedResult> {
  return seedSite(deps, orgUuid, parseSiteText(text, format), operation);
}

async function createSite(deps: SeedDeps, w: WriteScope, site: SiteFile, existing: Existing): Promise<SeedResult> {
  const result: SeedResult = {};
  const created = (kind: SiteKind, key: string, uuid: string) => ((result[kind] ??= {})[key] = uuid);
  const uuidOf = (kind: SiteKind, key: string) => result[kind]![key];
  const kept: Kept = (kind, key) => existing.kept[kind]?.get(key);

  for (const l of site.locations ?? []) {
    const { name, timeZone, ...rest } = l;
    const current = existing.locations.get(name);
    if (!current) created('locations', name, (await createLocation(w, { name, timeZone: timeZone ?? 'UTC', ...rest })).uuid);
    else {
      const changes = locationChanges(current, l);
      if (changes) await reviseLocation(w, current.uuid, changes, false);
      created('locations', name, current.uuid);
    }
  }
  for (const g of site.permissionGroups ?? []) {
    const uuid =
      kept('permissionGroups', g.name) ??
      (
        await addGroup(deps, w, {
          name: g.name,
          description: g.description,
          superAdmin: g.superAdmin,
          functionalityList: g.functionality as Functionality[] | undefined,
          accessibleLocations: g.locations?.map((l) => uuidOf('locations', l)),
        })
      ).uuid;
    created('permissionGroups', g.name, uuid);
  }
  // The kinds a big site has most of are created in bulk (chunked statements); the rest one by one.
  const users = site.users ?? [];
  for (const u of users) {
    const current = existing.users.get(u.name);
    if (!current) continue;
    if (u.email && normaliseEmail(u.email) !== current.email) await reviseUser(w, current.uuid, { email: u.email });
    created('users', u.name, current.uuid);
  }
  const newUsers = users.filter((u) => !existing.users.has(u.name));
  const userRows = newUsers.map((u) => ({
    name: u.name,
    email: u.email,
    permissionGroupUuid: u.group !== undefined ? uuidOf('permissionGroups', u.group) : null,
  }));
  (await createUsers(w, userRows)).forEach((u, i) => created('users', newUsers[i].name, u.uuid));
  for (const t of site.userMetadataTemplates ?? []) {
    const { name, ...rest } = t;
    created('userMetadataTemplates', name, kept('userMetadataTemplates', name) ?? (await insertTemplate(w, { fieldName: name, ...rest })).uuid);
  }
  for (const u of users) if (u.metadata) await putFields(w, uuidOf('users', u.name), u.metadata);
  const people = site.people ?? [];
  for (const p of people) if (kept('people', p.name)) created('people', p.name, kept('people', p.name)!);
  const newPeople = people.filter((p) => !kept('people', p.name));
  (await createPeople(w, newPeople)).forEach((p, i) => created('people', newPeople[i].name, p.uuid));
  for (const s of site.schedules ?? []) {
    const fields = {
      times: {
        strategy: 'WEEKLY_REPEATING_MINUTES' as const,
        intervalList: checkedIntervals(
          s.intervals.map((x) => ({ minuteOfWeekStart: x.start, minuteOfWeekStop: x.stop })),
          'intervalList',
        ),
      },
      mutable: s.mutable,
      oneTimeUse: s.oneTimeUse,
    };
    const current = existing.schedules.get(s.name);
    if (!current) created('schedules', s.name, (await createSchedule(w, { name: s.name, ...fields })).uuid);
    else {
      if (scheduleChanged(current, fields)) await reviseSchedule(w, current, fields);
      created('schedules', s.name, current.uuid);
    }
  }

  for (const p of site.cameraPolicies ?? []) {
    const scheduledTriggers = p.schedules.map((s) => ({
      scheduleUuid: uuidOf('schedules', s.schedule),
      triggerSet: s.activities.map((activity) => ({ activity })),
    }));
    created('cameraPolicies', p.name, kept('cameraPolicies', p.name) ?? (await insertCameraPolicy(w, { name: p.name, scheduledTriggers })));
  }

  const deviceInput = (
    kind: DeviceKind,
    d: { name: string; location: string } & Partial<DeviceInput>,
    attributes: Record<string, unknown> = {},
  ): DeviceInput => ({
    kind,
    name: d.name,
    locationUuid: uuidOf('locations', d.location),
    serialNumber: d.serialNumber,
    firmwareVersion: d.firmwareVersion,
    connectionStatus: d.connectionStatus,
    healthStatus: d.healthStatus,
    macAddress: d.macAddress,
    attributes,
  });
  const devices: Array<{ kind: SiteKind; name: string; input: DeviceInput }> = [];
  const addDevice = async (kind: SiteKind, name: string, input: DeviceInput) => {
    const current = existing.devices.get(input.kind)?.get(name);
    if (current) created(kind, name, (await reviseDevice(w, current, input)).uuid);
    else devices.push({ kind, name, input });
  };
  for (const kind of DEVICE_SITE_KINDS) {
    for (const d of site[kind] ?? []) {
      const sensor = kind === 'sensors' ? (d as NonNullable<SiteFile['sensors']>[number]) : null;
      const deviceKind = sensor ? SENSOR_KINDS[sensor.kind as keyof typeof SENSOR_KINDS] : DEVICE_KIND_OF[kind];
      const camera = kind === 'cameras' ? (d as NonNullable<SiteFile['cameras']>[number]) : null;
      const policy = camera?.policy;
      const attributes = {
        ...(camera?.hwVariation !== undefined ? { hwVariation: camera.hwVariation } : {}),
        ...(camera?.lanAddresses !== undefined ? { lanAddresses: camera.lanAddresses } : {}),
        ...(sensor?.thresholds ? { thresholds: sensor.thresholds } : {}),
        ...(policy !== undefined ? { policyUuid: uuidOf('cameraPolicies', policy) } : {}),
        ...(kind === 'elevatorLandings' ? { floor: (d as NonNullable<SiteFile['elevatorLandings']>[number]).floor } : {}),
      };
      await addDevice(kind, d.name, deviceInput(deviceKind, d, attributes));
    }
  }
  // A door without a named controller gets one of its own.
  for (const d of site.doors ?? []) {
    if (d.controller === undefined) {
      const name = controllerNameFor(d.name);
      await addDevice('doorControllers', name, deviceInput('DOOR_CONTROLLER', { name, location: d.location }));
    }
  }
  (
    await createDevices(
      w,
      devices.map((d) => d.input),
    )
  ).forEach((record, i) => created(devices[i].kind, devices[i].name, record.uuid));

  for (const d of site.doors ?? []) {
    if (kept('doors', d.name)) {
      created('doors', d.name, kept('doors', d.name)!);
      continue;
    }
    const controllerUuid = uuidOf('doorControllers', d.controller ?? controllerNameFor(d.name));
    const door = await createDoor(w, {
      name: d.name,
      locationUuid: uuidOf('locations', d.location),
      hasLock: d.lock ?? true,
      scheduleUuid: d.schedule !== undefined ? uuidOf('schedules', d.schedule) : null,
      controllerUuid,
      cameraUuids: (d.cameras ?? []).map((c) => uuidOf('cameras', c)),
      unlockDurationMs: d.unlockDurationMs,
      defaultState: d.defaultState,
      unlockedScheduleUuid: d.unlockedSchedule !== undefined ? uuidOf('schedules', d.unlockedSchedule) : null,
      controlledScheduleUuid: d.controlledSchedule !== undefined ? uuidOf('schedules', d.controlledSchedule) : null,
    });
    created('doors', d.name, door.uuid);
  }
  await seedAccess(w, site, uuidOf, created, kept);
  // Lockdown plans, schedule exceptions, guests, and the doors' own states.
  Object.assign(result, await createAccessLockdownEntries(w, site, uuidOf, kept));

  for (const t of site.thirdPartyCameraDiscoveries ?? []) {
    const key = entryKey('thirdPartyCameraDiscoveries', t);
    created('thirdPartyCameraDiscoveries', key, kept('thirdPartyCameraDiscoveries', key) ?? (await createDiscovery(w, t)).thirdPartyCameraMacAddress);
  }
  for (const s of site.shipments ?? []) created('shipments', s.crmOppId, kept('shipments', s.crmOppId) ?? (await createShipment(w, s)).uuid);
  for (const r of site.rmas ?? []) {
    const deviceUuid = r.camera !== undefined ? uuidOf('cameras', r.camera) : null;
    const rma = {
      subject: r.name,
      deviceUuid,
      status: r.status,
      description: r.description,
      zendeskTicket: r.zendeskTicket,
      warrantyApproved: r.warrantyApproved,
    };
    created('rmas', r.name, kept('rmas', r.name) ?? (await createRma(w, rma)).uuid);
  }
  // Hardware already in the partner's inventory is kept as it is.
  for (const h of site.partnerHardware ?? []) created('partnerHardware', h.serialNumber, (await addPartnerHardware(w, h)).uuid);
  return result;
}
