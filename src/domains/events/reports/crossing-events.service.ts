import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid } from '../../../ids.js';
import { findDevice } from '../../devices/service.js';
import {
  CROSSING_EVENT_PAGE,
  CROSSING_EVENTS_MAX,
  type GetThresholdCrossingEventsForDeviceRequest,
  type GetThresholdCrossingEventsRequest,
  type MinimalThresholdEvent,
} from './schemas.js';
import * as store from './store.js';

/**
 * The crossings as events: a recorded crossing of `ingress` in and `egress` out is that many INGRESS events
 * then that many EGRESS events, at its time. Events run oldest first, by (time, crossing id, ordinal within
 * the crossing); the per-device page's key is the position of its last event.
 */

type ReadDeps = Pick<Deps, 'store'>;

/** Crossing rows read per query while filling a page. */
const ROWS_PER_READ = 500;

function eventsOf(row: store.CrossingEventRow, fromOrdinal = 0): MinimalThresholdEvent[] {
  const out: MinimalThresholdEvent[] = [];
  for (let k = fromOrdinal; k < row.ingress + row.egress; k++) {
    out.push({ crossingObject: row.object, direction: k < row.ingress ? 'INGRESS' : 'EGRESS', timestampMs: row.timestamp_ms });
  }
  return out;
}

async function cameraOf(deps: ReadDeps, orgUuid: string, ref: string): Promise<string> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const camera = uuid ? await findDevice(deps, orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${ref}`);
  return camera.uuid;
}

function checkRange(input: { startTimeMs: number; endTimeMs: number }): void {
  if (input.startTimeMs > input.endTimeMs) throw fail('INVALID_VALUE', 'startTimeMs must not be after endTimeMs');
}

/** getThresholdCrossingEvents: every event of the cameras in the range, by camera uuid; at most CROSSING_EVENTS_MAX in all. */
export async function getCrossingEvents(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetThresholdCrossingEventsRequest,
): Promise<Record<string, MinimalThresholdEvent[]>> {
  checkRange(input);
  const cameras = [...new Set(await Promise.all(input.devices.map((d) => cameraOf(deps, ctx.orgUuid, d))))];
  const answer: Record<string, MinimalThresholdEvent[]> = Object.fromEntries(cameras.map((c) => [c, []]));
  let total = 0;
  let from: { timestampMs: number; id: number } | null = null;
  for (;;) {
    const rows = await store.listCrossingRows(
      deps.store.db,
      ctx.orgUuid,
      input.crossingObject ?? 'HUMAN',
      cameras,
      input.startTimeMs,
      input.endTimeMs,
      from,
      ROWS_PER_READ,
    );
    for (const row of rows) {
      total += row.ingress + row.egress;
      if (total > CROSSING_EVENTS_MAX)
        throw fail(
          'INVALID_VALUE',
          `the range holds more than ${CROSSING_EVENTS_MAX} crossing events: narrow it, or page with getThresholdCrossingEventsForDevice`,
        );
      answer[row.device_uuid].push(...eventsOf(row));
    }
    if (rows.length < ROWS_PER_READ) return answer;
    const last = rows.at(-1)!;
    from = { timestampMs: last.timestamp_ms, id: last.id + 1 };
  }
}

const KEY = /^(\d{1,16})\.(\d{1,16})\.(\d{1,9})$/;

/** getThresholdCrossingEventsForDevice: a page of one camera's events; the key names the page's last event. */
export async function getDeviceCrossingEvents(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetThresholdCrossingEventsForDeviceRequest,
): Promise<{ thresholdCrossingEvents: MinimalThresholdEvent[]; lastEvaluatedKey: string | null }> {
  checkRange(input);
  const camera = await cameraOf(deps, ctx.orgUuid, input.deviceUuid);
  let position: { timestampMs: number; id: number; ordinal: number } | null = null;
  if (input.lastEvaluatedKey != null) {
    const m = KEY.exec(input.lastEvaluatedKey);
    if (!m) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
    position = { timestampMs: Number(m[1]), id: Number(m[2]), ordinal: Number(m[3]) };
  }
  const max = input.maxPageSize ?? CROSSING_EVENT_PAGE.default;
  const page: MinimalThresholdEvent[] = [];
  let last: { timestampMs: number; id: number; ordinal: number } | null = null;
  let from = position ? { timestampMs: position.timestampMs, id: position.id } : null;
  // Bounded: each read moves past at least one row, and the page stops at `max` events.
  for (;;) {
    const rows = await store.listCrossingRows(
      deps.store.db,
      ctx.orgUuid,
      input.crossingObject ?? 'HUMAN',
      [camera],
      input.startTimeMs,
      input.endTimeMs,
      from,
      ROWS_PER_READ,
    );
    for (const row of rows) {
      const first = position && row.timestamp_ms === position.timestampMs && row.id === position.id ? position.ordinal + 1 : 0;
      const events = eventsOf(row, first);
      const take = events.slice(0, max - page.length);
      page.push(...take);
      if (take.length > 0) last = { timestampMs: row.timestamp_ms, id: row.id, ordinal: first + take.length - 1 };
      if (page.length === max) {
        const more = take.length < events.length || row !== rows.at(-1) || rows.length === ROWS_PER_READ;
        return { thresholdCrossingEvents: page, lastEvaluatedKey: more && last ? `${last.timestampMs}.${last.id}.${last.ordinal}` : null };
      }
    }
    if (rows.length < ROWS_PER_READ) return { thresholdCrossingEvents: page, lastEvaluatedKey: null };
    const end = rows.at(-1)!;
    from = { timestampMs: end.timestamp_ms, id: end.id + 1 };
  }
}
