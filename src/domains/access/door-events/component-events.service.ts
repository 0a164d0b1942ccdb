import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { ReadSource } from '../../../store/reader.js';
import { doorbellEvents } from '../../devices/sensors/service.js';
import { findDevice, findLocation } from '../../devices/service.js';
import { findUser } from '../../orgs/service.js';
import type { ComponentEventRecord } from './service.js';
import * as events from './store.js';
import { findDoor } from '../service.js';

export const COMPONENT_EVENT_LIMIT = { default: 100, max: 1000 };

/**
 * The non-paginated component event finders, one row each: the request field that names what the events are
 * of, the column it is found by, and (for a record the organization keeps) how an unknown or foreign one is
 * refused. A value such as a hex value or a correlation id is simply searched among the organization's events.
 */
export const COMPONENT_EVENT_FINDERS = [
  {
    operationId: 'findComponentEventsByAccessControlledDoor',
    field: 'accessControlledDoorUuid',
    column: 'door_uuid',
    owner: { label: 'Door', exists: findDoor },
  },
  { operationId: 'findComponentEventsByLocation', field: 'locationUuid', column: 'location_uuid', owner: { label: 'Location', exists: findLocation } },
  { operationId: 'findComponentEventsByUser', field: 'userUuid', column: 'user_uuid', owner: { label: 'User', exists: findUser } },
  { operationId: 'findComponentEventsByOwnerDevice', field: 'ownerDeviceUuid', column: 'owner_device_uuid', owner: { label: 'Device', exists: findDevice } },
  { operationId: 'findComponentEventsByCredentialUuid', field: 'credentialUuid', column: 'credential_uuid' },
  { operationId: 'findComponentEventsByCredentialHexValue', field: 'credentialHexValue', column: 'credential_hex_value', lowerCase: true },
  { operationId: 'findComponentEventsByCredentialValue', field: 'credentialValue', column: 'credential_value' },
  { operationId: 'findComponentEventsByCorrelation', field: 'correlationId', column: 'correlation_id' },
  { operationId: 'findComponentEventsByApiToken', field: 'tokenUuid', column: 'api_token_uuid' },
  // Gatehouse models a door's reader, relay and sensors as the door itself, so a component is a door.
  { operationId: 'findComponentEventsByComponent', field: 'componentUuid', column: 'door_uuid', owner: { label: 'Component', exists: findDoor } },
  // A support authority acts through an API key: its events are that key's (its remote unlocks).
  { operationId: 'findComponentEventsBySupportAuthority', field: 'supportAuthorityUuid', column: 'api_token_uuid' },
] as const satisfies ReadonlyArray<{
  operationId: string;
  field: string;
  column: events.EventColumn;
  owner?: { label: string; exists: (source: ReadSource, orgUuid: string, uuid: string) => Promise<unknown> };
  lowerCase?: boolean;
}>;
export type ComponentEventFinder = (typeof COMPONENT_EVENT_FINDERS)[number];

export interface ComponentEventsInput {
  createdAfterMs?: number | null;
  createdBeforeMs?: number | null;
  limit?: number | null;
  typeFilter?: string[] | null;
}

/** The organization's events of what the finder names, newest first; both time bounds are exclusive. */
export async function findComponentEvents(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  finder: ComponentEventFinder,
  input: ComponentEventsInput & Record<string, unknown>,
): Promise<ComponentEventRecord[]> {
  const named = String(input[finder.field]);
  const value = 'lowerCase' in finder ? named.toLowerCase() : named;
  if ('owner' in finder && !(await finder.owner.exists(deps, ctx.orgUuid, value))) throw fail('NOT_FOUND', finder.owner.label);
  const rows = await events.pageEvents(deps.store.db, {
    orgUuid: ctx.orgUuid,
    by: { column: finder.column, value },
    afterMs: input.createdAfterMs ?? undefined,
    beforeMs: input.createdBeforeMs ?? undefined,
    types: input.typeFilter ?? undefined,
    newestFirst: true,
    after: null,
    limit: Math.min(input.limit ?? COMPONENT_EVENT_LIMIT.default, COMPONENT_EVENT_LIMIT.max),
  });
  return rows.map((r) => JSON.parse(r.payload) as ComponentEventRecord);
}

/** A video intercom's event: a door's, or one of its own presses (a DoorbellEvent). */
export type IntercomEvent = ComponentEventRecord | (Record<string, unknown> & { uuid: string; timestampMs: number; type: 'DoorbellEvent' });

/**
 * findComponentEventsForVideoIntercom: a video intercom's (doorbell camera's) presses, with the events of the
 * door given, newest first; both time bounds exclusive, at most `limit`.
 */
export async function findVideoIntercomEvents(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: ComponentEventsInput & { videoIntercomUuid: string; accessControlledDoorUuid?: string | null },
): Promise<IntercomEvent[]> {
  const limit = Math.min(input.limit ?? COMPONENT_EVENT_LIMIT.default, COMPONENT_EVENT_LIMIT.max);
  if (!(await findDevice(deps, ctx.orgUuid, input.videoIntercomUuid, ['DOORBELL_CAMERA']))) throw fail('NOT_FOUND', 'Video intercom');
  const door = input.accessControlledDoorUuid;
  if (door && !(await findDoor(deps, ctx.orgUuid, door))) throw fail('NOT_FOUND', 'Door');
  const [presses, rows] = await Promise.all([
    doorbellEvents<IntercomEvent>(deps, ctx, {
      deviceUuid: input.videoIntercomUuid,
      // The device history's lower bound is inclusive; the component finders' is not.
      createdAfterMs: input.createdAfterMs == null ? null : input.createdAfterMs + 1,
      createdBeforeMs: input.createdBeforeMs,
      limit,
      typeFilter: input.typeFilter,
    }),
    door
      ? events.pageEvents(deps.store.db, {
          orgUuid: ctx.orgUuid,
          by: { column: 'door_uuid', value: door },
          afterMs: input.createdAfterMs ?? undefined,
          beforeMs: input.createdBeforeMs ?? undefined,
          types: input.typeFilter ?? undefined,
          newestFirst: true,
          after: null,
          limit,
        })
      : [],
  ]);
  const merged: IntercomEvent[] = [...presses, ...rows.map((r) => JSON.parse(r.payload) as ComponentEventRecord)];
  return merged.sort((a, b) => b.timestampMs - a.timestampMs).slice(0, limit);
}
