import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { FACE_EVENT_PAGE, SIMILAR_FACES, type FindSimilarFaceEventsRequest, type SimilarFaceEventRecord } from './face-events.schemas.js';
import { eventFilter, toFaceEvent } from './face-events.service.js';
import * as store from './face-events.store.js';

/**
 * How alike two sightings are. A sighting's face is kept as what the camera matched it to: the person it looked
 * most like and how much (match_person_uuid, match_confidence: the cosine of the face's embedding with the
 * person's). In the embeddings' many dimensions the parts of two faces that are not the person's are all but
 * orthogonal, so two faces that look like the same person with confidences a and b are alike by a·b; faces
 * that look like different people, or like no one known, are not alike at all. Ordering look-alikes by their
 * own confidence is therefore ordering them by similarity, which the store does over an index.
 */
const similarity = (a: number, b: number) => Math.round(a * b * 1e6) / 1e6;

const encodeKey = (key: store.LikenessKey) => Buffer.from(JSON.stringify([key.confidence, key.timestampMs, key.uuid])).toString('base64url');

function decodeKey(token: string): store.LikenessKey {
  try {
    const [confidence, timestampMs, uuid] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [unknown, unknown, unknown];
    if (typeof confidence === 'number' && Number.isSafeInteger(timestampMs) && typeof uuid === 'string') {
      return { confidence, timestampMs: timestampMs as number, uuid };
    }
  } catch {
    // answered below
  }
  throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
}

/**
 * findSimilarFaceEvents: the organization's other sightings that look like the one asked about, most alike first
 * (then newest), within the distance threshold (distance = 1 - similarity) and the search filter, a page at a
 * time. Another organization's sighting answers as an unknown one.
 */
export async function findSimilarFaceEvents(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: CallerContext,
  input: FindSimilarFaceEventsRequest,
): Promise<{ faceEvents: SimilarFaceEventRecord[]; lastEvaluatedKey: string | null }> {
  const seen = await store.findFaceEvent(deps.store.db, ctx.orgUuid, input.faceEventUuid);
  if (!seen) throw fail('NOT_FOUND', 'Face event');
  const f = input.searchFilter ?? {};
  const page = input.pageRequest ?? {};
  const filter = await eventFilter(deps, ctx, f, () => 0);
  const after = page.lastEvaluatedKey != null ? decodeKey(page.lastEvaluatedKey) : null;
  const confidence = seen.match_confidence == null ? 0 : Number(seen.match_confidence);
  if (!seen.match_person_uuid || confidence <= 0) return { faceEvents: [], lastEvaluatedKey: null };
  const leastSimilarity = 1 - (f.faceMatchDistanceThreshold ?? SIMILAR_FACES.defaultDistance);
  const max = page.maxPageSize ?? FACE_EVENT_PAGE.default;
  const rows = await store.listLookalikes(
    deps.store.db,
    ctx.orgUuid,
    { personUuid: seen.match_person_uuid, minConfidence: leastSimilarity / confidence, exceptUuid: seen.uuid },
    filter,
    after,
    max + 1,
  );
  const events = rows.slice(0, max);
  const last = events.at(-1);
  return {
    faceEvents: events.map((row) => ({ ...toFaceEvent(row), similarity: similarity(confidence, Number(row.match_confidence)) })),
    lastEvaluatedKey:
      rows.length > max && last ? encodeKey({ confidence: Number(last.match_confidence), timestampMs: Number(last.timestamp_ms), uuid: last.uuid }) : null,
  };
}
