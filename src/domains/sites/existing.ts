import type { WriteScope } from '../../bus/write.js';
import { exceptionUuidsByName } from '../access/exceptions/service.js';
import { ruleUuidsByName } from '../access/grants/service.js';
import { groupUuidsByName as accessGroupUuidsByName } from '../access/groups/service.js';
import { planUuidsByName } from '../access/lockdowns/lockdown-plans.js';
import { doorUuidsByName } from '../access/service.js';
import { listDevices, listDiscoveries, listLocations, type DeviceRecord, type LocationRecord } from '../devices/service.js';
import type { DeviceKind } from '../devices/tables.js';
import { personUuidsByName } from '../faces/service.js';
import { guestUuidsByEmail } from '../guests/guests.service.js';
import { findShipment } from '../internal/service.js';
import { rmaUuidsBySubject } from '../internal/logistics.service.js';
import { listUserRecords, type UserRecord } from '../orgs/service.js';
import { templateUuidsByName } from '../orgs/users/user-metadata.service.js';
import { groupUuidsByName as permissionGroupUuidsByName } from '../orgs/permissions/service.js';
import { cameraPolicyUuidsByName } from '../policies/service.js';
import { listSchedules, type ScheduleRecord } from '../schedules/service.js';
import type { SiteFile, SiteKind } from './schema.js';
import { DEVICE_SITE_KINDS } from './validate.js';

/**
 * What the organization already has of a site file's kinds, by the file's key for each (the name; a shipment's
 * crmOppId, a discovery's MAC address, a guest's e-mail address). Seeding a file again updates these entries
 * (locations, devices, schedules, users' e-mail addresses) or keeps them as they are (the other kinds),
 * instead of making them twice.
 */
export interface Existing {
  locations: Map<string, LocationRecord>;
  /** By device kind, then name. */
  devices: Map<DeviceKind, Map<string, DeviceRecord>>;
  users: Map<string, UserRecord>;
  schedules: Map<string, ScheduleRecord>;
  /** The uuid of each entry of the kinds that are kept as they are. */
  kept: Partial<Record<SiteKind, Map<string, string>>>;
}

function firstOfEach<T>(records: readonly T[], keyOf: (record: T) => string): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const record of records) if (!byKey.has(keyOf(record))) byKey.set(keyOf(record), record);
  return byKey;
}

/** Reads, in the seed's write, what the organization has of the kinds the file holds (nothing for the others). */
export async function existingEntries(w: WriteScope, site: SiteFile): Promise<Existing> {
  const orgUuid = w.actor.orgUuid;
  const holds = (kind: SiteKind) => ((site[kind] as unknown[] | undefined)?.length ?? 0) > 0;
  const devices = new Map<DeviceKind, Map<string, DeviceRecord>>();
  if (DEVICE_SITE_KINDS.some(holds) || holds('doors')) {
    for (const device of await listDevices(w, orgUuid)) {
      const named = devices.get(device.deviceType) ?? new Map<string, DeviceRecord>();
      if (!named.has(device.name)) named.set(device.name, device);
      devices.set(device.deviceType, named);
    }
  }
  const loaders: Partial<Record<SiteKind, () => Promise<Map<string, string>>>> = {
    permissionGroups: () => permissionGroupUuidsByName(w, orgUuid),
    cameraPolicies: () => cameraPolicyUuidsByName(w, orgUuid),
    userMetadataTemplates: () => templateUuidsByName(w, orgUuid),
    people: () => personUuidsByName(w, orgUuid),
    doors: () => doorUuidsByName(w, orgUuid),
    accessGroups: () => accessGroupUuidsByName(w, orgUuid),
    accessGrants: () => ruleUuidsByName(w, orgUuid, 'GRANT'),
    accessRevocations: () => ruleUuidsByName(w, orgUuid, 'REVOCATION'),
    lockdownPlans: () => planUuidsByName(w, orgUuid),
    doorScheduleExceptions: () => exceptionUuidsByName(w, orgUuid),
    guests: () => guestUuidsByEmail(w, orgUuid),
    thirdPartyCameraDiscoveries: async () =>
      new Map((await listDiscoveries(w, orgUuid)).map((d) => [d.thirdPartyCameraMacAddress, d.thirdPartyCameraMacAddress])),
    shipments: async () => {
      const found = new Map<string, string>();
      for (const s of site.shipments ?? []) {
        const shipment = await findShipment(w, orgUuid, s.crmOppId);
        if (shipment) found.set(s.crmOppId, shipment.uuid);
      }
      return found;
    },
    rmas: () => rmaUuidsBySubject(w, orgUuid),
  };
  const kept: Existing['kept'] = {};
  // A door's access list is seeded as a grant: the grants are looked up whenever doors are.
  const needed = (kind: SiteKind) => holds(kind) || (kind === 'accessGrants' && holds('doors'));
  for (const [kind, load] of Object.entries(loaders) as Array<[SiteKind, () => Promise<Map<string, string>>]>) {
    if (needed(kind)) kept[kind] = await load();
  }
  return {
    locations: holds('locations') ? firstOfEach(await listLocations(w, orgUuid), (l) => l.name) : new Map(),
    devices,
    users: holds('users') ? firstOfEach(await listUserRecords(w, orgUuid), (u) => u.name) : new Map(),
    schedules: holds('schedules') ? firstOfEach(await listSchedules(w, orgUuid), (s) => s.name) : new Map(),
    kept,
  };
}
