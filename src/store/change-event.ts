/** What the durable change log holds of each change; the bus announces it and the stream delivers it. */

export type ChangeType = 'CREATE' | 'UPDATE' | 'DELETE';

/** A change of an organization's state, as the stream delivers it on /topic/change/{orgUuid}. */
export interface ChangeEvent {
  /** Monotonic id from the durable change log: the order of delivery within an organization. */
  id: number;
  /** The organization's change position: 1, 2, 3, ... in commit order, without gaps (the stream's resume point). */
  position: number;
  orgUuid: string;
  entity: string;
  entityUuid: string;
  type: ChangeType;
  deviceUuid: string | null;
  timestampMs: number;
  /** The record as the REST API returns it. */
  update: unknown;
  /**
   * The rules whose actions made the change (Actor.causedByRules), on its announcement only: the change log does not
   * keep them and the stream does not deliver them. The general rule runner, which hears changes on the bus, reads them.
   */
  causedByRules?: readonly string[];
}

/** The body of the MESSAGE that carries a change: the record as the REST API returns it, under `update`. */
export interface ChangeMessageBody {
  entity: string;
  entityUuid: string;
  type: ChangeType;
  deviceUuid: string | null;
  timestampMs: number;
  update: unknown;
}

export function changeMessageBody(event: ChangeEvent): ChangeMessageBody {
  const { entity, entityUuid, type, deviceUuid, timestampMs, update } = event;
  return { entity, entityUuid, type, deviceUuid, timestampMs, update: update ?? null };
}
