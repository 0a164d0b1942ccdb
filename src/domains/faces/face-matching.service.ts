import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import * as store from './face-events.store.js';

/** The threshold of an organization that set none. */
export const DEFAULT_FACE_MATCH_THRESHOLD = 0.75;
export const FACE_MATCHING_CONFIG_ENTITY = 'FACE_MATCHING_CONFIG';

export interface FaceMatchingConfigRecord {
  orgUuid: string;
  faceMatchConfidenceThreshold: number;
  updatedAtMs: number | null;
}

/** The confidence (0 to 1) a face must be matched with to count as a sighting of the person. */
export async function matchThreshold(source: ReadSource, orgUuid: string): Promise<number> {
  return (await store.findMatchingConfig(dbOf(source), orgUuid))?.confidence_threshold ?? DEFAULT_FACE_MATCH_THRESHOLD;
}

export async function getFaceMatchingConfig(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<FaceMatchingConfigRecord> {
  const row = await store.findMatchingConfig(deps.store.db, ctx.orgUuid);
  return {
    orgUuid: ctx.orgUuid,
    faceMatchConfidenceThreshold: row?.confidence_threshold ?? DEFAULT_FACE_MATCH_THRESHOLD,
    updatedAtMs: row ? Number(row.updated_at_ms) : null,
  };
}

/**
 * updateFaceMatchingConfig: sets the organization's threshold. It decides every later sighting (a camera's, or
 * `gatehouse simulate face --confidence C`): below it the face is recorded unidentified, with its best match
 * in topPersonMatches. Sightings already recorded keep what they were. Announced as FACE_MATCHING_CONFIG.
 */
export async function updateFaceMatchingConfig(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  threshold: number,
): Promise<FaceMatchingConfigRecord> {
  return write(deps, ctx, async (w) => {
    await store.putMatchingConfig(w.tx, { org_uuid: ctx.orgUuid, confidence_threshold: threshold, updated_at_ms: w.nowMs });
    const record = { orgUuid: ctx.orgUuid, faceMatchConfidenceThreshold: threshold, updatedAtMs: w.nowMs };
    w.change({ entity: FACE_MATCHING_CONFIG_ENTITY, entityUuid: ctx.orgUuid, type: 'UPDATE', update: record });
    return record;
  });
}
