import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { FootageBoundingBoxesTable } from './tables.js';

type Db = Kysely<DB>;
type NewBox = Omit<FootageBoundingBoxesTable, 'id'>;

export async function insertBoxes(db: Db, rows: readonly NewBox[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('footage_bounding_boxes')
    .values([...rows])
    .execute();
}

/** A camera's boxes with fromMs <= ts < toMs, oldest first (the camera/ts index), at most `limit`. */
export async function listBoxes(db: Db, cameraUuid: string, fromMs: number, toMs: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('footage_bounding_boxes')
    .select('box')
    .where('camera_uuid', '=', cameraUuid)
    .where('ts', '>=', fromMs)
    .where('ts', '<', toMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.box);
}
