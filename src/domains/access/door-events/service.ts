import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { newRuuid } from '../../../ids.js';
import type { WriteScope } from '../../../bus/write.js';
import * as events from './store.js';
import { decodePageKey, pageOf } from '../../../store/page-key.js';
import type { DoorRecord } from '../service.js';

/** The reference's ComponentEventEnumType names of the events a door records. */
export const DOOR_EVENT_TYPES = [
  'CredentialReceivedEvent',
  'DoorRelayStateChangeEvent',
  'DoorPositionIndicatorStateChangeEvent',
  'RequestToExitStateChangeEvent',
  'DoorLocationLockdownStateEvent',
] as const;
export type DoorEventType = (typeof DOOR_EVENT_TYPES)[number];

/** The entity name of door events on the change stream. */
export const COMPONENT_EVENT_ENTITY = 'COMPONENT_EVENT';
export const DOOR_EVENT_PAGE = { default: 100, max: 1000 };

/** What differs by event type; the common fields are filled in by recordDoorEvent. */
export interface DoorEventDetails {
  type: DoorEventType;
  /** The relay, door position or request-to-exit state the event reports. */
  newState?: string;
  /** The person behind the event: the credential's holder, or the user who unlocked remotely. */
  userUuid?: string | null;
  /** Ties an event to the one that caused it (a relay change to its badge-in or unlock request). */
  correlationId?: string;
  credentialUuid?: string | null;
  credentialHexValue?: string;
  credentialValue?: string | null;
  credentialValueLengthBits?: number | null;
  credSource?: string;
  authenticationResult?: 'ACCEPTED' | 'REJECTED' | 'ERROR' | 'NA';
  authorizationResult?: 'ALLOWED' | 'DENIED' | 'DISABLED' | 'ERROR' | 'NA';
  authDecisionSource?: string;
  /** The grant that admitted a badge-in or the revocation that refused it. */
  accessGrantOrRevocationUuid?: string | null;
  activeDoorLockdownState?: 'LOCKED_DOWN' | 'ACCESS_CONTROLLED' | 'UNLOCKED' | 'UNKNOWN';
  originator?: { type: string };
  /** The API key behind a remote unlock. */
  apiTokenUuid?: string | null;
}

/** A door event as the REST API and the stream carry it (the reference's ComponentEventType family). */
export interface ComponentEventRecord extends DoorEventDetails {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  componentCompositeUuid: string;
  ownerDeviceUuid: string | null;
  timestampMs: number;
  createdAtMs: number;
}

/** Records an event of a door at `timestampMs` and raises it on the stream. */
export async function recordDoorEvent(w: WriteScope, door: DoorRecord, timestampMs: number, details: DoorEventDetails): Promise<ComponentEventRecord> {
  const record: ComponentEventRecord = {
    uuid: newRuuid(),
    orgUuid: door.orgUuid,
    locationUuid: door.locationUuid,
    componentCompositeUuid: door.uuid,
    ownerDeviceUuid: door.controllerUuid,
    timestampMs,
    createdAtMs: timestampMs,
    ...details,
  };
  await events.insertDoorEvents(w.tx, [
    {
      uuid: record.uuid,
      org_uuid: door.orgUuid,
      door_uuid: door.uuid,
      type: details.type,
      timestamp_ms: timestampMs,
      user_uuid: details.userUuid ?? null,
      payload: JSON.stringify(record),
      location_uuid: door.locationUuid,
      owner_device_uuid: door.controllerUuid,
      credential_uuid: details.credentialUuid ?? null,
      credential_hex_value: details.credentialHexValue ?? null,
      credential_value: details.credentialValue ?? null,
      correlation_id: details.correlationId ?? null,
      api_token_uuid: details.apiTokenUuid ?? null,
    },
  ]);
  w.change({ entity: COMPONENT_EVENT_ENTITY, entityUuid: record.uuid, deviceUuid: door.controllerUuid, type: 'CREATE', update: record, timestampMs });
  return record;
}

export interface DoorEventsInput {
  accessControlledDoorUuid: string;
  createdAfterMs?: number | null;
  createdBeforeMs?: number | null;
  typeFilter?: string[] | null;
  userFilter?: string[] | null;
  maxPageSize?: number | null;
  lastEvaluatedKey?: string | null;
  reverseSearch?: boolean | null;
}

/**
 * A page of a door's events, newest first (oldest first with reverseSearch), as their stored JSON texts (parse
 * them, or splice them: event-answer.ts). Both time bounds are exclusive. `lastEvaluatedKey` is present while
 * more events follow. The edge resolved the door against the caller's organization (its RefUuid), and the
 * events are read by organization too: the door itself is not read.
 */
export async function findDoorEvents(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: DoorEventsInput,
): Promise<{ componentEvents: string[]; lastEvaluatedKey: string | null }> {
  const limit = Math.min(input.maxPageSize ?? DOOR_EVENT_PAGE.default, DOOR_EVENT_PAGE.max);
  const after = input.lastEvaluatedKey ? decodePageKey(input.lastEvaluatedKey, ['number', 'number'] as const) : null;
  const rows = await events.pageEvents(deps.store.db, {
    orgUuid: ctx.orgUuid,
    by: { column: 'door_uuid', value: input.accessControlledDoorUuid },
    afterMs: input.createdAfterMs ?? undefined,
    beforeMs: input.createdBeforeMs ?? undefined,
    types: input.typeFilter ?? undefined,
    userUuids: input.userFilter ?? undefined,
    newestFirst: !input.reverseSearch,
    after: after && { timestampMs: after[0], id: after[1] },
    limit: limit + 1,
  });
  const { page, lastEvaluatedKey } = pageOf(rows, limit, (r) => [r.timestamp_ms, r.id]);
  return { componentEvents: page.map((r) => r.payload), lastEvaluatedKey };
}
