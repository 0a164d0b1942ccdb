import type { ChangeType } from '../../src/store/change-event.js';
import type { ChangeInput } from '../../src/bus/write.js';

/** A change of any entity name and payload, as stream and bus tests raise them. */
export interface RawChange {
  entity: string;
  entityUuid: string;
  type: ChangeType;
  deviceUuid?: string | null;
  update: unknown;
  orgUuid?: string;
  timestampMs?: number;
}

/**
 * Lets a test raise a change outside the typed entity map (src/bus/entities.ts): the stream and the change
 * log carry whatever they are given, and their tests exercise that with made-up names and payloads.
 * Domain code never does this; its `w.change()` calls are checked against the map.
 */
export const rawChange = (change: RawChange): ChangeInput => change as unknown as ChangeInput;
