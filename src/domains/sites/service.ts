import YAML from 'yaml';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { write, type WriteScope } from '../../store/write.js';
import { createDoor } from '../access/service.js';
import { createDevices, createDiscovery, createLocation, findDiscovery, type DeviceInput } from '../devices/service.js';
import type { DeviceKind } from '../devices/tables.js';
import { createPeople } from '../faces/service.js';
import { createShipment, findShipment } from '../internal/service.js';
import { createUsers, getOrg } from '../orgs/service.js';
import { emailTaken } from '../orgs/users.service.js';
import { hasTemplateNamed, insertTemplate, putFields } from '../orgs/user-metadata.service.js';
import type { Functionality } from '../permissions/rights.js';
import { addGroup, hasGroupNamed } from '../permissions/service.js';
import { hasGroupNamed as hasAccessGroupNamed } from '../access/groups.service.js';
import { createSchedule } from '../schedules/service.js';
import { seedAccess } from './access.seed.js';
import { createAccessLockdownEntries } from './access-lockdown.js';
import { SENSOR_KINDS, type SeedResult, type SiteFile, type SiteKind } from './schema.js';
import { controllerNameFor, DEVICE_SITE_KINDS, entryKey, siteFileProblems } from './validate.js';

type SeedDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
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

function refuse(problems: string[]): never {
  const shown = problems.slice(0, MAX_REPORTED);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  throw fail('INVALID_VALUE', `site file: ${shown.join('; ')}${more}`);
}

/** Problems that only the organization's store can reveal: a shipment or discovery it already has. */
async function storeProblems(deps: SeedDeps, orgUuid: string, site: SiteFile): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, s] of (site.shipments ?? []).entries()) {
    if (await findShipment(deps, orgUuid, s.crmOppId))
      problems.push(`shipments[${i}].crmOppId (${s.crmOppId}): the organization already has a shipment for it`);
  }
  for (const [i, u] of (site.users ?? []).entries()) {
    if (u.email && (await emailTaken(deps, orgUuid, u.email)))
      problems.push(`users[${i}] (${u.name}).email: a user of the organization already has "${u.email}"`);
  }
  for (const [i, t] of (site.userMetadataTemplates ?? []).entries()) {
    if (await hasTemplateNamed(deps, orgUuid, t.name))
      problems.push(`userMetadataTemplates[${i}] (${t.name}).name: the organization already has this user metadata template`);
  }
  for (const [i, g] of (site.permissionGroups ?? []).entries()) {
    if (await hasGroupNamed(deps, orgUuid, g.name))
      problems.push(`permissionGroups[${i}] (${g.name}).name: the organization already has this permission group`);
  }
  for (const [i, g] of (site.accessGroups ?? []).entries()) {
    if (await hasAccessGroupNamed(deps, orgUuid, g.name)) problems.push(`accessGroups[${i}] (${g.name}).name: the organization already has this access group`);
  }
  for (const [i, t] of (site.thirdPartyCameraDiscoveries ?? []).entries()) {
    if (await findDiscovery(deps, orgUuid, t.macAddress))
      problems.push(`thirdPartyCameraDiscoveries[${i}].macAddress (${t.macAddress}): the organization already has this discovery`);
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
};

/**
 * Loads a site file into an organization: validates all of it first (every problem names its entry and
 * field), then creates everything in ONE transaction, so a bad file changes nothing. Answers the created
 * UUIDs by kind and name.
 */
export async function seedSite(deps: SeedDeps, orgUuid: string, site: unknown, operation = 'site.seed'): Promise<SeedResult> {
  await getOrg(deps, { orgUuid });
  const problems = siteFileProblems(site);
  if (problems.length > 0) refuse(problems);
  const file = site as SiteFile;
  const fromStore = await storeProblems(deps, orgUuid, file);
  if (fromStore.length > 0) refuse(fromStore);
  return write(deps, systemActor(orgUuid, operation), (w) => createSite(w, file));
}

export async function seedSiteText(deps: SeedDeps, orgUuid: string, text: string, format: SiteFormat, operation?: string): Promise<SeedResult> {
  return seedSite(deps, orgUuid, parseSiteText(text, format), operation);
}

async function createSite(w: WriteScope, site: SiteFile): Promise<SeedResult> {
  const result: SeedResult = {};
  const created = (kind: SiteKind, key: string, uuid: string) => ((result[kind] ??= {})[key] = uuid);
  const uuidOf = (kind: SiteKind, key: string) => result[kind]![key];

  for (const l of site.locations ?? []) {
    const { name, timeZone, ...rest } = l;
    created('locations', name, (await createLocation(w, { name, timeZone: timeZone ?? 'UTC', ...rest })).uuid);
  }
  for (const g of site.permissionGroups ?? []) {
    const group = await addGroup(w, {
      name: g.name,
      description: g.description,
      superAdmin: g.superAdmin,
      functionalityList: g.functionality as Functionality[] | undefined,
      accessibleLocations: g.locations?.map((l) => uuidOf('locations', l)),
    });
    created('permissionGroups', g.name, group.uuid);
  }
  // The kinds a big site has most of are created in bulk (chunked statements); the rest one by one.
  const users = site.users ?? [];
  const newUsers = users.map((u) => ({
    name: u.name,
    email: u.email,
    permissionGroupUuid: u.group !== undefined ? uuidOf('permissionGroups', u.group) : null,
  }));
  (await createUsers(w, newUsers)).forEach((u, i) => created('users', users[i].name, u.uuid));
  for (const t of site.userMetadataTemplates ?? []) {
    const { name, ...rest } = t;
    created('userMetadataTemplates', name, (await insertTemplate(w, { fieldName: name, ...rest })).uuid);
  }
  for (const u of users) if (u.metadata) await putFields(w, uuidOf('users', u.name), u.metadata);
  const people = site.people ?? [];
  (await createPeople(w, people)).forEach((p, i) => created('people', people[i].name, p.uuid));
  for (const s of site.schedules ?? []) {
    const intervalList = s.intervals.map((x) => ({ minuteOfWeekStart: x.start, minuteOfWeekStop: x.stop }));
    created('schedules', s.name, (await createSchedule(w, { name: s.name, intervalList, mutable: s.mutable, oneTimeUse: s.oneTimeUse })).uuid);
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
  for (const kind of DEVICE_SITE_KINDS) {
    for (const d of site[kind] ?? []) {
      const sensor = kind === 'sensors' ? (d as NonNullable<SiteFile['sensors']>[number]) : null;
      const deviceKind = sensor ? SENSOR_KINDS[sensor.kind as keyof typeof SENSOR_KINDS] : DEVICE_KIND_OF[kind];
      const attributes = {
        ...(sensor?.thresholds ? { thresholds: sensor.thresholds } : {}),
        ...(kind === 'elevatorLandings' ? { floor: (d as NonNullable<SiteFile['elevatorLandings']>[number]).floor } : {}),
      };
      devices.push({ kind, name: d.name, input: deviceInput(deviceKind, d, attributes) });
    }
  }
  // A door without a named controller gets one of its own.
  for (const d of site.doors ?? []) {
    if (d.controller === undefined) {
      const name = controllerNameFor(d.name);
      devices.push({ kind: 'doorControllers', name, input: deviceInput('DOOR_CONTROLLER', { name, location: d.location }) });
    }
  }
  (
    await createDevices(
      w,
      devices.map((d) => d.input),
    )
  ).forEach((record, i) => created(devices[i].kind, devices[i].name, record.uuid));

  for (const d of site.doors ?? []) {
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
  await seedAccess(w, site, uuidOf, created, result);
  // access-lockdown (issue 21): lockdown plans, schedule exceptions, guests, and the doors' own states.
  Object.assign(result, await createAccessLockdownEntries(w, site, uuidOf));

  for (const t of site.thirdPartyCameraDiscoveries ?? []) {
    const discovery = await createDiscovery(w, t);
    created('thirdPartyCameraDiscoveries', entryKey('thirdPartyCameraDiscoveries', t), discovery.thirdPartyCameraMacAddress);
  }
  for (const s of site.shipments ?? []) created('shipments', s.crmOppId, (await createShipment(w, s)).uuid);
  return result;
}
