import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords } from '../../records/org-records.js';
import type { ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import { pageDoors } from '../access/doors/service.js';
import { updateCameraConfig } from '../devices/cameras/camera-details.service.js';
import { findDevicesBySerial, moveDeviceToOrg } from '../devices/lifecycle/device-moves.service.js';
import { listDevices, listLocations, type DeviceRecord } from '../devices/service.js';
import { DEVICE_TYPES, getPolicyAlerts } from '../events/alerts/service.js';
import { ALERT_LIST_PAGE } from '../events/alerts/schemas.js';
import { answeredEmailState, listShipments, type ShipmentRecord } from '../internal/service.js';
import { ownedRecords } from '../orgs/owned-records.js';
import { clientOf, reachableClients } from '../orgs/partners/service.js';
import { listUsers, type UserView } from '../orgs/users/service.js';
import { partnerOf } from '../orgs/partners/grants.js';

/** A client as partner/getClients(V2) answers it: the catalogue's fields, and `name`/`orgUuid` for the platform's CLI. */
export interface PartnerClientRecord {
  clientOrgUuid: string;
  clientOrgName: string;
  orgUuid: string;
  name: string;
  authorityUuid: string;
  clientAccessAllowed: boolean;
  createdAtMillis: number;
  totalLocations: number;
  totalCameras: number;
  totalAudioGateways: number;
  totalBadgeReaders: number;
  totalClimateSensors: number;
}

/** `partner/getClients(V2)`: the partner's client organizations with the counts of their locations and devices. */
export async function listClients(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<PartnerClientRecord[]> {
  const partner = partnerOf(ctx);
  const clients = await reachableClients(deps, ctx);
  return Promise.all(
    clients.map(async (c) => {
      const devices = await listDevices(deps, c.uuid);
      const count = (kind: string) => devices.filter((d) => d.deviceType === kind).length;
      return {
        clientOrgUuid: c.uuid,
        clientOrgName: c.name,
        orgUuid: c.uuid,
        name: c.name,
        authorityUuid: partner,
        clientAccessAllowed: true,
        createdAtMillis: c.created_at_ms,
        totalLocations: (await listLocations(deps, c.uuid)).length,
        totalCameras: count('CAMERA'),
        totalAudioGateways: count('AUDIO_GATEWAY'),
        totalBadgeReaders: count('DOOR_CONTROLLER'),
        totalClimateSensors: count('ENVIRONMENTAL_SENSOR'),
      };
    }),
  );
}

type PartnerDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface ClientCustomizations {
  forceLowBandwidthOnAllCameras: boolean | null;
  /** Minutes of inactivity before a console session of the client ends. */
  inactivityTimeout: number | null;
}

/**
 * What a partner sets for one of its clients: its customizations and whether the partner sends the licence
 * expiration e-mails itself. Kept in the client organization (announced on its stream) and answered; the
 * customizations are settings of the platform's console, which Gatehouse does not run.
 */
export interface PartnerClientSettingsRecord {
  uuid: string;
  orgUuid: string;
  partnerOrgUuid: string;
  customizations: ClientCustomizations;
  manuallySendLicenseExpirationEmail: boolean;
}

const clientSettings = ownedRecords(orgRecords({ entity: 'PARTNER_CLIENT_SETTINGS', label: 'Partner client settings', ownerOf: (r) => r.partnerOrgUuid }));

const NO_CUSTOMIZATIONS: ClientCustomizations = { forceLowBandwidthOnAllCameras: null, inactivityTimeout: null };

async function settingsOf(source: ReadSource, clientOrgUuid: string, partnerOrgUuid: string) {
  return clientSettings.find(source, clientOrgUuid, partnerOrgUuid);
}

/** Changes the partner's settings of a client, in the client organization. */
async function putClientSettings(deps: PartnerDeps, client: CallerContext, patch: Partial<PartnerClientSettingsRecord>): Promise<PartnerClientSettingsRecord> {
  const partner = client.partnerOrgUuid!;
  return write(deps, client, (w) =>
    clientSettings.upsert(
      w,
      partner,
      () => ({ orgUuid: client.orgUuid, partnerOrgUuid: partner, customizations: NO_CUSTOMIZATIONS, manuallySendLicenseExpirationEmail: false }),
      patch,
    ),
  );
}

/** customizeClient: the customizations given, over the client's current ones. */
export async function customizeClient(deps: PartnerDeps, ctx: CallerContext, clientOrgUuid: string, given: Partial<ClientCustomizations> | null | undefined) {
  const client = await clientOf(deps, ctx, clientOrgUuid);
  const current = (await settingsOf(deps, clientOrgUuid, client.partnerOrgUuid!))?.customizations ?? NO_CUSTOMIZATIONS;
  const customizations = { ...current, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined && v !== null)) };
  return (await putClientSettings(deps, client, { customizations })).customizations;
}

/** customizeClientDevice: a camera config update of one of the client's cameras, and the client's customizations. */
export async function customizeClientDevice(
  deps: PartnerDeps,
  ctx: CallerContext,
  input: {
    clientOrgUuid: string;
    clientDeviceUuid: string;
    configUpdate?: Record<string, unknown> | null;
    customizations?: Partial<ClientCustomizations> | null;
  },
) {
  const client = await clientOf(deps, ctx, input.clientOrgUuid);
  if (input.configUpdate) await updateCameraConfig(deps, client, { ...input.configUpdate, deviceUuid: input.clientDeviceUuid });
  return customizeClient(deps, ctx, input.clientOrgUuid, input.customizations);
}

/** updateSendLicenseExpirationEmail: whether the partner sends the client's licence expiration e-mails itself. */
export async function setSendLicenseEmail(deps: PartnerDeps, ctx: CallerContext, clientOrgUuid: string, manually: boolean): Promise<void> {
  await putClientSettings(deps, await clientOf(deps, ctx, clientOrgUuid), { manuallySendLicenseExpirationEmail: manually });
}

/** The devices that doors of the organization use (their controllers and cameras): they cannot change organization. */
async function devicesInDoors(deps: Pick<Deps, 'store'>, orgUuid: string): Promise<Set<string>> {
  const used = new Set<string>();
  let lastEvaluatedKey: string | null = null;
  do {
    const page = await pageDoors(deps, { orgUuid }, { lastEvaluatedKey, maxPageSize: 1000 });
    for (const door of page.doors) {
      if (door.controllerUuid) used.add(door.controllerUuid);
      for (const camera of door.cameraUuids) used.add(camera);
    }
    lastEvaluatedKey = page.lastEvaluatedKey;
  } while (lastEvaluatedKey);
  return used;
}

/** A client's device as the partner device lists answer it. */
function partnerDevice(d: DeviceRecord) {
  return {
    uuid: d.uuid,
    orgUuid: d.orgUuid,
    name: d.name,
    serialNumber: d.serialNumber,
    type: DEVICE_TYPES[d.deviceType],
    locationUuid: d.locationUuid,
    createdAtMillis: d.createdAtMillis,
    deleted: false,
    pending: false,
    mummified: false,
  };
}

/** getClientDevices: one client's devices, each with whether it can be moved to another client. */
export async function clientDevices(deps: Pick<Deps, 'store'>, ctx: CallerContext, clientOrgUuid: string) {
  await clientOf(deps, ctx, clientOrgUuid);
  const inDoors = await devicesInDoors(deps, clientOrgUuid);
  return (await listDevices(deps, clientOrgUuid)).map((d) => ({
    device: partnerDevice(d),
    partnerControlledHardware: false,
    reassignable: d.serialNumber !== null && !inDoors.has(d.uuid),
  }));
}

async function clientUuids(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<string[]> {
  return (await reachableClients(deps, ctx)).map((c) => c.uuid);
}

/** getListOfAllClientDevices: every device of every client. */
export async function allClientDevices(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const lists = await Promise.all((await clientUuids(deps, ctx)).map((client) => listDevices(deps, client)));
  return lists.flat().map(partnerDevice);
}

type StatusCounts = Record<string, { connectedCount: number; operationalCount: number; totalCount: number }>;

/** Device counts by type: all, connected (connection GREEN), operational (health GREEN). */
function statusCounts(devices: readonly DeviceRecord[]): StatusCounts {
  const map: StatusCounts = {};
  for (const d of devices) {
    const c = (map[DEVICE_TYPES[d.deviceType]] ??= { connectedCount: 0, operationalCount: 0, totalCount: 0 });
    c.totalCount++;
    if (d.connectionStatus === 'GREEN') c.connectedCount++;
    if (d.healthStatus === 'GREEN') c.operationalCount++;
  }
  return map;
}

/** getClientStatusMap: per client, its device counts by type. */
export async function clientStatusMap(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, StatusCounts>> {
  const clients = await clientUuids(deps, ctx);
  return Object.fromEntries(await Promise.all(clients.map(async (c) => [c, statusCounts(await listDevices(deps, c))] as const)));
}

/** How far back getClientSummaryInfo counts policy alerts. */
export const RECENT_ALERTS_MS = 24 * 3600_000;

/**
 * getClientSummaryInfo: the client's account owner (the user of its accountOwnerEmail, else its first user),
 * device counts, locations, policy alerts of the last day (counted up to the alert list's page maximum) and the
 * partner's licence e-mail setting.
 */
export async function clientSummary(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, clientOrgUuid: string) {
  const client = await clientOf(deps, ctx, clientOrgUuid);
  const users = await listUsers(deps, client);
  const owner: UserView | undefined = users.find((u) => u.accountOwner) ?? [...users].sort((a, b) => a.createdAtMillis - b.createdAtMillis)[0];
  const alerts = await getPolicyAlerts(deps, client, { afterTimestampMs: deps.clock.now() - RECENT_ALERTS_MS, maxResults: ALERT_LIST_PAGE.maximum });
  const settings = await settingsOf(deps, clientOrgUuid, client.partnerOrgUuid!);
  return {
    accountOwner: owner ?? null,
    clientDeviceStatusMap: statusCounts(await listDevices(deps, clientOrgUuid)),
    locationCount: (await listLocations(deps, clientOrgUuid)).length,
    recentPolicyAlertCount: alerts.length,
    manuallySendLicenseExpirationEmailEnabled: settings?.manuallySendLicenseExpirationEmail ?? false,
  };
}

/**
 * reassignDeviceOrg: moves the devices of these serial numbers from one client of the partner to another,
 * in one write; each serial answers SUCCESS, or FAILURE with why (not a device of the source, or used by a
 * door there). An organization that is not a client of the partner answers as unknown, and nothing moves.
 */
export async function reassignDevices(
  deps: PartnerDeps,
  ctx: CallerContext,
  input: { serialNumbers?: string[] | null; sourceOrgUuid: string; targetOrgUuid: string },
) {
  if (input.sourceOrgUuid === input.targetOrgUuid) throw fail('INVALID_VALUE', 'targetOrgUuid: must differ from sourceOrgUuid');
  const source = await clientOf(deps, ctx, input.sourceOrgUuid);
  await clientOf(deps, ctx, input.targetOrgUuid);
  const serials = [...new Set(input.serialNumbers ?? [])];
  const inDoors = await devicesInDoors(deps, input.sourceOrgUuid);
  return write(deps, source, async (w) => {
    const found = await findDevicesBySerial(w, input.sourceOrgUuid, serials);
    const statuses: Record<string, { status: 'SUCCESS' | 'FAILURE'; message: string }> = {};
    for (const serial of serials) {
      const device = found.get(serial);
      if (!device) statuses[serial] = { status: 'FAILURE', message: `no device with serial number ${serial} in organization ${input.sourceOrgUuid}` };
      else if (inDoors.has(device.uuid))
        statuses[serial] = { status: 'FAILURE', message: `device ${device.uuid} is used by a door: take it out of the door first` };
      else {
        await moveDeviceToOrg(w, device, input.targetOrgUuid);
        statuses[serial] = { status: 'SUCCESS', message: `device ${device.uuid} moved to organization ${input.targetOrgUuid}` };
      }
    }
    return statuses;
  });
}

/** A shipment as the partner's getShipments answers it (the reference's customer shipment). */
function partnerShipment(s: ShipmentRecord, partnerOrgUuid: string) {
  return {
    uuid: s.uuid,
    'rhombus-orgUuid': s.orgUuid,
    'rhombus-partnerOrgUuid': partnerOrgUuid,
    'rhombus-salesForceOpportunityId': s.crmOppId,
    'rhombus-customerEmails': s.email,
    'ait-carrierTrackingNumber': s.trackingIdentifier,
    'ait-shippedItems': s.items.map((i) => ({ partNumber: i.name, quantityShipped: i.quantity })),
    shipmentCategory: 'PURCHASE_ORDER' as const,
    shipmentState: s.trackingIdentifier ? ('SHIPPED' as const) : ('CREATED' as const),
    shipmentEmailState: answeredEmailState(s),
    lastStateUpdateSec: Math.floor(s.createdAtMillis / 1000),
  };
}

/** getShipments: the shipments of one client (or of every client) recorded in [startTimeSec, endTimeSec). */
export async function partnerShipments(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: CallerContext,
  input: { clientOrgUuid?: string | null; startTimeSec?: number | null; endTimeSec?: number | null },
) {
  const orgs = input.clientOrgUuid ? [(await clientOf(deps, ctx, input.clientOrgUuid)).orgUuid] : await clientUuids(deps, ctx);
  const fromMs = (input.startTimeSec ?? 0) * 1000;
  const toMs = input.endTimeSec != null ? input.endTimeSec * 1000 : deps.clock.now() + 1;
  if (fromMs >= toMs) throw fail('INVALID_VALUE', 'startTimeSec: must be before endTimeSec');
  return (await listShipments(deps, orgs, fromMs, toMs)).map((s) => partnerShipment(s, partnerOf(ctx)));
}
