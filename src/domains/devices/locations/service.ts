import { forgetRecord } from '../../../records/references.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { isValidTimeZone } from '../../schedules/week-minutes.js';
import * as locations from './store.js';
import { forgetImagesOf, listImages } from '../../orgs/uploads/service.js';
import { createLocation, toLocationRecord, type LocationRecord } from '../service.js';
import * as store from '../store.js';
import type { LocationsTable } from '../tables.js';

type LocationDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A location as the location operations answer it: the stored record with its labels and parent. */
export interface LocationView extends LocationRecord {
  labels: string[];
  /** Its floor plans (upload/floorplan), oldest first: each image's uuid and its path on the media host. */
  floorPlans?: FloorPlan[];
  parentLocationUuid: string | null;
  subLocations?: LocationView[];
}

/** A floor plan of a location, as LocationType's floorPlans carry it. */
export interface FloorPlan {
  mediaUuid: string;
  imageUrl: string;
}

/** The editable fields of a location, as the operations take them (null clears an optional one). */
export interface LocationFields {
  name?: string | null;
  tz?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  labels?: string[] | null;
}

const MAX_LABEL = 100;

function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (!trimmed || trimmed.length > MAX_LABEL) throw fail('INVALID_VALUE', `label: must be 1 to ${MAX_LABEL} characters`);
  return trimmed;
}

function checkTimeZone(tz: string): string {
  if (!isValidTimeZone(tz)) throw fail('INVALID_VALUE', `tz: "${tz}" is not a known IANA time zone`);
  return tz;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'name: must not be empty');
  return trimmed;
}

function view(row: LocationsTable, labels: string[]): LocationView {
  const record = toLocationRecord(row);
  // The platform's examples concatenate the address fields: strings, empty when unknown, never null.
  return {
    ...record,
    address1: record.address1 ?? '',
    address2: record.address2 ?? '',
    city: record.city ?? '',
    postalCode: record.postalCode ?? '',
    countryCode: record.countryCode ?? '',
    labels,
    parentLocationUuid: row.parent_uuid ?? null,
  };
}

async function views(source: ReadSource, orgUuid: string, rows: LocationsTable[]): Promise<LocationView[]> {
  const plans = new Map<string, FloorPlan[]>();
  for (const image of await listImages(source, orgUuid, ['FLOORPLAN'])) {
    if (image.targetUuid)
      (plans.get(image.targetUuid) ?? plans.set(image.targetUuid, []).get(image.targetUuid)!).push({ mediaUuid: image.uuid, imageUrl: image.uri });
  }
  const labels = new Map<string, string[]>();
  for (const l of await locations.listLabels(dbOf(source), orgUuid, rows.length > 50 ? undefined : rows.map((r) => r.uuid))) {
    const list = labels.get(l.location_uuid) ?? [];
    list.push(l.label);
    labels.set(l.location_uuid, list);
  }
  return rows.map((row) => ({ ...view(row, labels.get(row.uuid) ?? []), floorPlans: plans.get(row.uuid) ?? [] }));
}

async function locationOf(source: ReadSource, orgUuid: string, uuid: string): Promise<LocationsTable> {
  const row = await store.findLocation(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `Location ${uuid}`);
  return row;
}

/** Announces the location as it now stands. */
async function announce(w: WriteScope, uuid: string, type: 'CREATE' | 'UPDATE'): Promise<LocationView> {
  const [record] = await views(w, w.actor.orgUuid, [await locationOf(w, w.actor.orgUuid, uuid)]);
  w.change({ entity: 'LOCATION', entityUuid: uuid, type, update: record });
  return record!;
}

/** Every location of the organization by name; with `subLocations`, each carries its direct sub-locations. */
export async function getLocations(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { subLocationsIncluded?: boolean | null }): Promise<LocationView[]> {
  const all = await views(deps, ctx.orgUuid, await store.listLocations(deps.store.db, ctx.orgUuid));
  if (!input.subLocationsIncluded) return all;
  return all.map((l) => ({ ...l, subLocations: all.filter((s) => s.parentLocationUuid === l.uuid) }));
}

export async function getLocation(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { locationUuid: string; subLocationsRequired?: boolean | null },
): Promise<LocationView> {
  const [location] = await views(deps, ctx.orgUuid, [await locationOf(deps, ctx.orgUuid, input.locationUuid)]);
  if (!input.subLocationsRequired) return location!;
  const subs = (await store.listLocations(deps.store.db, ctx.orgUuid)).filter((r) => r.parent_uuid === location!.uuid);
  return { ...location!, subLocations: await views(deps, ctx.orgUuid, subs) };
}

/** Creates a location (under a parent, when given), with its labels. */
export async function addLocation(
  deps: LocationDeps,
  ctx: CallerContext,
  input: { location: LocationFields; parentLocationUuid?: string | null },
): Promise<LocationView> {
  const l = input.location;
  return write(deps, ctx, async (w) => {
    const created = await createLocation(w, {
      name: checkName(l.name ?? ''),
      timeZone: checkTimeZone(l.tz ?? 'UTC'),
      address1: l.address1,
      address2: l.address2,
      city: l.city,
      postalCode: l.postalCode,
      countryCode: l.countryCode,
      latitude: l.latitude,
      longitude: l.longitude,
    });
    const labels = [...new Set((l.labels ?? []).map(checkLabel))];
    if (input.parentLocationUuid || labels.length > 0) {
      await locations.updateLocation(w.tx, ctx.orgUuid, created.uuid, { parent_uuid: input.parentLocationUuid ?? null });
      await locations.replaceLabels(w.tx, ctx.orgUuid, created.uuid, labels);
      return announce(w, created.uuid, 'UPDATE');
    }
    return { ...created, labels: [], parentLocationUuid: null };
  });
}

/**
 * Changes a location. `replace`: every field takes the given value (an absent optional one is cleared;
 * name and time zone keep theirs when absent); otherwise only the fields given change. A time-zone change
 * moves the location's door schedules with it: they are evaluated on the location's wall clock.
 */
export async function changeLocation(deps: LocationDeps, ctx: CallerContext, uuid: string, fields: LocationFields, replace: boolean): Promise<LocationView> {
  return write(deps, ctx, (w) => reviseLocation(w, uuid, fields, replace));
}

/** changeLocation inside a write (a site file seeded again changes its locations in the seed's write). */
export async function reviseLocation(w: WriteScope, uuid: string, fields: LocationFields, replace: boolean): Promise<LocationView> {
  const row = await locationOf(w, w.actor.orgUuid, uuid);
  const pick = <K extends keyof LocationFields>(k: K): LocationFields[K] | undefined => (fields[k] !== undefined ? fields[k] : replace ? null : undefined);
  const patch: locations.LocationPatch = { updated_at_ms: w.nowMs };
  if (fields.name != null) patch.name = checkName(fields.name);
  if (fields.tz != null) patch.time_zone = checkTimeZone(fields.tz);
  const optional = {
    address1: 'address1',
    address2: 'address2',
    city: 'city',
    postalCode: 'postal_code',
    countryCode: 'country_code',
    latitude: 'latitude',
    longitude: 'longitude',
  } as const;
  for (const [field, column] of Object.entries(optional) as Array<[keyof typeof optional, (typeof optional)[keyof typeof optional]]>) {
    const value = pick(field);
    if (value !== undefined) (patch as Record<string, unknown>)[column] = value;
  }
  for (const [c, limit] of [
    ['latitude', 90],
    ['longitude', 180],
  ] as const) {
    const v = patch[c];
    if (v != null && Math.abs(v) > limit) throw fail('INVALID_VALUE', `${c}: must be between -${limit} and ${limit}`);
  }
  await locations.updateLocation(w.tx, w.actor.orgUuid, row.uuid, patch);
  const labels = pick('labels');
  if (labels !== undefined) await locations.replaceLabels(w.tx, w.actor.orgUuid, row.uuid, [...new Set((labels ?? []).map(checkLabel))]);
  return announce(w, row.uuid, 'UPDATE');
}

/**
 * Deletes a location (and its floor plans): refused while devices, sub-locations or records that stand at it
 * (doors, grants, lockdown plans, guests) are in it; the records that merely name it let it go (recordCleaners).
 */
export async function deleteLocation(
  deps: LocationDeps & Pick<Deps, 'locationUsage' | 'recordCleaners' | 'config'>,
  ctx: CallerContext,
  input: { uuid: string },
): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await locationOf(w, ctx.orgUuid, input.uuid);
    const devices = await locations.countDevicesAt(w.tx, row.uuid);
    const others = await Promise.all(deps.locationUsage.map((check) => check(w, ctx.orgUuid, row.uuid)));
    const subs = await locations.countSubLocations(w.tx, row.uuid);
    const inUse = [devices && `${devices} device(s)`, ...others, subs && `${subs} sub-location(s)`].filter(Boolean);
    if (inUse.length > 0) throw fail('NOT_ALLOWED', `Location ${row.uuid} still has ${inUse.join(', ')}: move or delete them first`);
    const [record] = await views(w, ctx.orgUuid, [row]);
    await locations.deleteLocation(w.tx, ctx.orgUuid, row.uuid);
    w.change({ entity: 'LOCATION', entityUuid: row.uuid, type: 'DELETE', update: record });
    await forgetImagesOf(deps, w, ['FLOORPLAN'], row.uuid);
    await forgetRecord(deps, w, 'location', row.uuid);
  });
}

/** Adds or removes one label of a location; `locationIdentifier` is the location's uuid. */
export async function changeLabel(deps: LocationDeps, ctx: CallerContext, input: { label: string; locationIdentifier: string }, add: boolean): Promise<void> {
  const label = checkLabel(input.label);
  await write(deps, ctx, async (w) => {
    const row = await locationOf(w, ctx.orgUuid, input.locationIdentifier);
    const changed = add ? await locations.insertLabel(w.tx, ctx.orgUuid, row.uuid, label) : await locations.deleteLabel(w.tx, row.uuid, label);
    if (!add && !changed) throw fail('NOT_FOUND', `Label "${label}" of location ${row.uuid}`);
    if (changed) await announce(w, row.uuid, 'UPDATE');
  });
}

/** The organization's labels: by location (location uuid to its labels) or by label (label to its locations). */
export async function labelMap(deps: Pick<Deps, 'store'>, ctx: CallerContext, by: 'location' | 'label'): Promise<Record<string, string[]>> {
  const map: Record<string, string[]> = {};
  for (const l of await locations.listLabels(deps.store.db, ctx.orgUuid)) {
    const [key, value] = by === 'location' ? [l.location_uuid, l.label] : [l.label, l.location_uuid];
    (map[key] ??= []).push(value);
  }
  return map;
}

/**
 * "What else is at this location?": each domain whose records stand at a location (doors, ...) provides a
 * check, listed in the composition root (`deps.locationUsage`, src/open-deps.ts), so that deleting a location
 * in use is refused without the devices domain importing those domains. A check names what is there
 * (`2 door(s)`), or answers null.
 */
export type LocationUsageCheck = (source: ReadSource, orgUuid: string, locationUuid: string) => Promise<string | null>;

declare module '../../../deps.js' {
  interface Deps {
    /** The checks that tell what else stands at a location (doors, grants, lockdown plans, guests): deleting it is then refused. */
    locationUsage: readonly LocationUsageCheck[];
  }
}
