import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords } from '../../records/org-records.js';
import { write } from '../../bus/write.js';
import { ownedRecords } from '../orgs/owned-records.js';

/** The guest kiosks' connection states (the catalogue's ConnectionStatusEnum). */
export const KIOSK_CONNECTION_STATUSES = ['ONLINE', 'OFFLINE', 'UNKNOWN'] as const;

/**
 * A guest check-in kiosk (a tablet at a location's entrance) as the stream carries it. The kiosk names itself by
 * its own id (`kioskUuid`, the catalogue's `uuid`); the record is the organization's, made on the kiosk's first update.
 */
export interface KioskRecord {
  uuid: string;
  orgUuid: string;
  kioskUuid: string;
  name: string | null;
  locationUuid: string | null;
  hostUserUuid: string | null;
  printerIP: string | null;
  batteryLevel: number | null;
  connectionStatus: (typeof KIOSK_CONNECTION_STATUSES)[number] | null;
  latitude: number | null;
  longitude: number | null;
  deleted: boolean;
  lastUpdateTimeMs: number | null;
}

const records = orgRecords({ entity: 'KIOSK', label: 'Kiosk', nameOf: (r) => r.name, ownerOf: (r) => r.kioskUuid });
const kiosks = ownedRecords(records);

const KIOSK_FIELDS = ['name', 'locationUuid', 'hostUserUuid', 'printerIP', 'batteryLevel', 'connectionStatus', 'latitude', 'longitude', 'deleted'] as const;
type KioskField = (typeof KIOSK_FIELDS)[number];

export type KioskUpdate = Partial<{ [K in KioskField]: KioskRecord[K] | null }> & {
  uuid: string;
  orgUuid?: string | null;
  lastUpdateTimeMs?: number | null;
  updatedSetMethodMap?: Record<string, boolean> | null;
};

/**
 * `updateKiosk`, a selective update: with `updatedSetMethodMap` the fields it marks true are set (to null too);
 * without it, every field given. The location and host user are checked at the edge.
 */
export async function updateKiosk(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, update: KioskUpdate): Promise<KioskRecord> {
  if (update.orgUuid != null && update.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', `Organization ${update.orgUuid}`);
  const marked = update.updatedSetMethodMap;
  if (marked) {
    const unknown = Object.keys(marked).find((k) => !(KIOSK_FIELDS as readonly string[]).includes(k));
    if (unknown) throw fail('INVALID_VALUE', `kioskUpdate.updatedSetMethodMap: "${unknown}" is not a field of a kiosk (${KIOSK_FIELDS.join(', ')})`);
  }
  const patch: Partial<KioskRecord> = {};
  for (const field of KIOSK_FIELDS) {
    const value = update[field];
    const set = marked ? marked[field] === true : value != null;
    if (set) (patch as Record<string, unknown>)[field] = field === 'deleted' ? value === true : (value ?? null);
  }
  return write(deps, ctx, (w) =>
    kiosks.upsert(
      w,
      update.uuid,
      () => ({
        orgUuid: ctx.orgUuid,
        kioskUuid: update.uuid,
        name: null,
        locationUuid: null,
        hostUserUuid: null,
        printerIP: null,
        batteryLevel: null,
        connectionStatus: null,
        latitude: null,
        longitude: null,
        deleted: false,
        lastUpdateTimeMs: null,
      }),
      { ...patch, lastUpdateTimeMs: w.nowMs },
    ),
  );
}

/** The organization's kiosk of this id, or null. */
export async function findKiosk(deps: Pick<Deps, 'store'>, ctx: CallerContext, kioskUuid: string): Promise<KioskRecord | null> {
  return kiosks.find(deps, ctx.orgUuid, kioskUuid);
}
