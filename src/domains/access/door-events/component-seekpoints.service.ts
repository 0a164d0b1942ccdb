import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { Activity } from '../../../schemas/activities.js';
import type { ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { createCustomSeekpoints, listCustomSeekpoints, type CustomSeekpointFilter, type CustomSeekpointRecord } from '../../timeline/custom-seekpoints.js';
import type { ComponentSeekPoint, CustomSeekpointInput } from '../../timeline/seekpoints.schemas.js';
import { inTimeOrder, SOURCE_LIMIT, SPAN_EXCLUSIVE, spanOf, type Span } from '../../timeline/span.js';
import { deviceEventsInSpan } from '../../devices/device-reads/device-events.service.js';
import { findDevice } from '../../devices/service.js';
import { COMPONENT_EVENT_FINDERS, type ComponentEventFinder } from './component-events.service.js';
import type { ComponentEventRecord } from './service.js';
import * as events from './store.js';
import { findDoor, findDoors } from '../service.js';
import { componentEventAnswer } from './event-answer.js';
import * as store from '../store.js';

/**
 * Component seekpoints: the activities of access-controlled doors over a span (badge-ins, relay and door
 * position changes, exits, lockdowns) from the door events, with the doors' custom marks and a doorbell
 * camera's presses. One query per source whatever the span, each over its (org, column, time) index.
 */

type ReadDeps = Pick<Deps, 'store'>;

const DPI: Record<string, Activity> = {
  OPEN: 'AC_DPI_DOOR_OPEN',
  CLOSED: 'AC_DPI_DOOR_CLOSED',
  AJAR: 'AC_DPI_DOOR_AJAR',
  FORCED_OPEN: 'AC_DPI_DOOR_FORCED_OPEN',
};

/** The activity of a door (or doorbell) event; null for an event no seekpoint marks. */
export function activityOfEvent(
  e: Pick<ComponentEventRecord, 'type' | 'newState' | 'authorizationResult' | 'apiTokenUuid' | 'activeDoorLockdownState'> | { type: 'DoorbellEvent' },
): Activity | null {
  if (e.type === 'DoorbellEvent') return 'AC_DB_TRIGGERED';
  switch (e.type) {
    case 'CredentialReceivedEvent':
      return e.authorizationResult === 'ALLOWED' ? 'AC_BADGE_AUTHORIZED' : 'AC_BADGE_UNAUTHORIZED';
    case 'DoorRelayStateChangeEvent':
      if (e.newState === 'LOCKED') return 'AC_DSR_LOCKED';
      return e.apiTokenUuid ? 'AC_REMOTE_UNLOCK' : 'AC_DSR_UNLOCKED';
    case 'DoorPositionIndicatorStateChangeEvent':
      return DPI[e.newState ?? ''] ?? null;
    case 'RequestToExitStateChangeEvent':
      return e.newState === 'INACTIVE' ? 'AC_REX_INACTIVE' : 'AC_REX_ACTIVE';
    case 'DoorLocationLockdownStateEvent':
      return e.activeDoorLockdownState === 'LOCKED_DOWN' ? 'AC_LOCKDOWN_ACTIVATED' : 'AC_LOCKDOWN_DEACTIVATED';
    default:
      return null;
  }
}

const subLocations = (locationUuid: string | null | undefined) => (locationUuid ? { locationUuids: [locationUuid] } : null);

function eventSeekpoint(e: ComponentEventRecord & { componentUuid?: string | null }, activity: Activity): ComponentSeekPoint {
  return {
    activity,
    uuid: e.uuid,
    orgUuid: e.orgUuid,
    componentCompositeUuid: e.componentCompositeUuid ?? null,
    componentUuid: e.componentUuid ?? e.componentCompositeUuid ?? null,
    ownerDeviceUuid: e.ownerDeviceUuid,
    locationUuid: e.locationUuid,
    subLocationsHierarchyKey: subLocations(e.locationUuid),
    userUuid: e.userUuid ?? null,
    timestampMs: e.timestampMs,
    originalEvent: componentEventAnswer(e) as unknown as Record<string, unknown>,
  };
}

function markSeekpoint(m: CustomSeekpointRecord): ComponentSeekPoint {
  return {
    activity: 'CUSTOM',
    uuid: m.uuid,
    orgUuid: m.orgUuid,
    componentCompositeUuid: m.accessControlledDoorUuid,
    componentUuid: m.accessControlledDoorUuid,
    locationUuid: m.locationUuid,
    subLocationsHierarchyKey: subLocations(m.locationUuid),
    customActivityDisplayName: m.name,
    customActivityDescription: m.description,
    // A mark given no colour has none (the catalogue's colour is not nullable).
    ...(m.color ? { customActivityColor: m.color } : {}),
    timestampMs: m.timestampMs,
    originalEvent: m as unknown as Record<string, unknown>,
  };
}

/** What a component seekpoint read covers: the door events whose column holds one of the values, and the marks of the filter. */
interface ComponentSources {
  events?: { column: events.EventColumn; values: readonly string[] };
  marks?: CustomSeekpointFilter;
  /** Doorbell cameras whose presses are seekpoints too. */
  doorbells?: readonly string[];
}

/** The seekpoints of the sources over the span, oldest first (equal times: door events, marks, presses). */
export async function componentSeekpoints(
  source: ReadSource & ReadDeps,
  orgUuid: string,
  span: Span,
  sources: ComponentSources,
): Promise<ComponentSeekPoint[]> {
  const [rows, marks, presses] = await Promise.all([
    sources.events
      ? events.pageEvents(source.store.db, {
          orgUuid,
          by: { column: sources.events.column, value: sources.events.values },
          // The bounds are exclusive: from the span's first millisecond to its end.
          afterMs: span.fromMs - 1,
          beforeMs: span.toMs,
          newestFirst: false,
          after: null,
          limit: SOURCE_LIMIT,
        })
      : [],
    sources.marks ? listCustomSeekpoints(source, orgUuid, span, { ...sources.marks, kind: 'DOOR' }) : [],
    sources.doorbells?.length
      ? deviceEventsInSpan(source, { orgUuid, deviceUuids: sources.doorbells, families: ['component'], ...span, limit: SOURCE_LIMIT })
      : [],
  ]);
  const fromEvents = (list: ComponentEventRecord[]) =>
    list.flatMap((e) => {
      const activity = activityOfEvent(e);
      return activity ? [eventSeekpoint(e, activity)] : [];
    });
  return inTimeOrder<ComponentSeekPoint>(
    [
      fromEvents(rows.map((r) => JSON.parse(r.payload) as ComponentEventRecord)),
      marks.map(markSeekpoint),
      fromEvents(presses.map((p) => p.record as unknown as ComponentEventRecord)),
    ],
    (p) => p.timestampMs!,
  );
}

const finder = (field: string): ComponentEventFinder => COMPONENT_EVENT_FINDERS.find((f) => f.field === field)!;

/**
 * The component seekpoint finders: each reads the events of the component event finder of the same field
 * (whose owner check refuses an unknown or foreign id), and the custom marks of the doors it names.
 */
export const COMPONENT_SEEKPOINT_FINDERS = [
  { operationId: 'findComponentSeekPointsByAccessControlledDoor', finder: finder('accessControlledDoorUuid'), marks: 'door' },
  { operationId: 'findComponentSeekPointsByComponent', finder: finder('componentUuid'), marks: 'door' },
  { operationId: 'findComponentSeekPointsByLocation', finder: finder('locationUuid'), marks: 'location' },
  { operationId: 'findComponentSeekPointsByOwnerDevice', finder: finder('ownerDeviceUuid'), marks: 'controller' },
  // A user's seekpoints are their badge-ins and unlocks: marks name no user.
  { operationId: 'findComponentSeekPointsByUser', finder: finder('userUuid'), marks: 'none' },
] as const;
export type ComponentSeekpointFinder = (typeof COMPONENT_SEEKPOINT_FINDERS)[number];

export interface ComponentSpanInput {
  startTimeSecEpochExclusive?: number | null;
  durationSec?: number | null;
}

/** A component seekpoint finder's answer: the seekpoints of what it names over the span after the (exclusive) start. */
export async function findComponentSeekpoints(
  deps: ReadDeps,
  ctx: Pick<CallerContext, 'orgUuid'>,
  f: ComponentSeekpointFinder,
  input: ComponentSpanInput & Record<string, unknown>,
): Promise<ComponentSeekPoint[]> {
  const span = spanOf(input.startTimeSecEpochExclusive, input.durationSec, SPAN_EXCLUSIVE);
  const value = input[f.finder.field];
  if (typeof value !== 'string' || !value) throw fail('INVALID_VALUE', `${f.finder.field} is required`);
  if ('owner' in f.finder && !(await f.finder.owner.exists(deps, ctx.orgUuid, value))) throw fail('NOT_FOUND', f.finder.owner.label);
  const marks: CustomSeekpointFilter | undefined =
    f.marks === 'door'
      ? { targetUuids: [value] }
      : f.marks === 'location'
        ? { locationUuids: [value] }
        : f.marks === 'controller'
          ? { targetUuids: await store.listDoorUuidsOfController(deps.store.db, ctx.orgUuid, value) }
          : undefined;
  return componentSeekpoints(deps, ctx.orgUuid, span, { events: { column: f.finder.column, values: [value] }, marks });
}

/**
 * findComponentSeekPointsByAccessControlledDoors: the seekpoints of several doors, all of the caller's (one
 * unknown or foreign refuses the call). `sortResponse` orders them by time; otherwise door by door, as named.
 */
export async function findDoorsSeekpoints(
  deps: ReadDeps,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: ComponentSpanInput & { accessControlledDoorUuidList?: string[] | null; sortResponse?: boolean | null },
): Promise<ComponentSeekPoint[]> {
  const span = spanOf(input.startTimeSecEpochExclusive, input.durationSec, SPAN_EXCLUSIVE);
  const named = [...new Set(input.accessControlledDoorUuidList ?? [])];
  if (named.length === 0) throw fail('INVALID_VALUE', 'accessControlledDoorUuidList: name at least one door');
  const doors = await findDoors(deps, ctx.orgUuid, named);
  if (doors.length !== named.length) throw fail('NOT_FOUND', 'Door');
  const points = await componentSeekpoints(deps, ctx.orgUuid, span, { events: { column: 'door_uuid', values: named }, marks: { targetUuids: named } });
  if (input.sortResponse) return points;
  const order = new Map(named.map((d, i) => [d, i]));
  // Door by door, as named; sort is stable, so each door's seekpoints stay in time order.
  return points.sort((a, b) => order.get(a.componentCompositeUuid!)! - order.get(b.componentCompositeUuid!)!);
}

/** findComponentSeekPointsForDoorbellCamera: the doorbell camera's presses (AC_DB_TRIGGERED). */
export async function findDoorbellSeekpoints(
  deps: ReadDeps,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: ComponentSpanInput & { doorbellCameraUuid?: string | null },
): Promise<ComponentSeekPoint[]> {
  const span = spanOf(input.startTimeSecEpochExclusive, input.durationSec, SPAN_EXCLUSIVE);
  if (!input.doorbellCameraUuid) throw fail('INVALID_VALUE', 'doorbellCameraUuid is required');
  const doorbell = await findDevice(deps, ctx.orgUuid, input.doorbellCameraUuid, ['DOORBELL_CAMERA']);
  if (!doorbell) throw fail('NOT_FOUND', 'Doorbell camera');
  return componentSeekpoints(deps, ctx.orgUuid, span, { doorbells: [doorbell.uuid] });
}

/** createAccessControlledDoorSeekpoints: custom marks on the caller's door, in one write, each announced as a CUSTOM_SEEKPOINT. */
export async function createDoorSeekpoints(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { doorUuid?: string | null; seekPoints?: CustomSeekpointInput[] | null },
): Promise<number> {
  const points = input.seekPoints ?? [];
  if (!input.doorUuid) throw fail('INVALID_VALUE', 'doorUuid is required');
  if (points.length === 0) throw fail('INVALID_VALUE', 'seekPoints: give at least one seekpoint');
  return write(deps, ctx, async (w) => {
    const door = await findDoor(w, ctx.orgUuid, input.doorUuid!);
    if (!door) throw fail('NOT_FOUND', 'Door');
    return (await createCustomSeekpoints(w, { kind: 'DOOR', uuid: door.uuid, locationUuid: door.locationUuid }, points)).length;
  });
}
