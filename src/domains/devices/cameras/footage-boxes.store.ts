import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { preparedQuery } from '../../../store/prepared-query.js';
import type { FootageBoundingBoxesTable } from '../tables.js';

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
  return (await boxesOfCamera(db, cameraUuid, fromMs, toMs, limit)).map((r) => r.box);
}

/** A point read: every footage segment served reads the boxes drawn into it. */
const boxesOfCamera = preparedQuery(4, (db, cameraUuid: string, fromMs: number, toMs: number, limit: number) =>
  db
    .selectFrom('footage_bounding_boxes')
    .select('box')
    .where('camera_uuid', '=', cameraUuid)
    .where('ts', '>=', fromMs)
    .where('ts', '<', toMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(limit),
);

/** The boxes of several cameras with fromMs <= ts < toMs, oldest first, at most `limit` in all (one query). */
export async function listBoxesOfCameras(
  db: Db,
  cameraUuids: readonly string[],
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<Array<{ camera_uuid: string; box: string }>> {
  if (cameraUuids.length === 0) return [];
  return db
    .selectFrom('footage_bounding_boxes')
    .select(['camera_uuid', 'box'])
    .where('camera_uuid', 'in', cameraUuids)
    .where('ts', '>=', fromMs)
    .where('ts', '<', toMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** A stored box with its row id (a detection's id) and camera. */
export interface BoxRow {
  id: number;
  camera_uuid: string;
  box: string;
}

/** The boxes of several cameras with fromMs <= ts < toMs, newest first, at most `limit` in all (one query). */
export async function listNewestBoxesOfCameras(db: Db, cameraUuids: readonly string[], fromMs: number, toMs: number, limit: number): Promise<BoxRow[]> {
  if (cameraUuids.length === 0) return [];
  return db
    .selectFrom('footage_bounding_boxes')
    .select(['id', 'camera_uuid', 'box'])
    .where('camera_uuid', 'in', cameraUuids)
    .where('ts', '>=', fromMs)
    .where('ts', '<', toMs)
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One of the organization's boxes by its row id, or undefined. */
export async function findOrgBox(db: Db, orgUuid: string, id: number): Promise<BoxRow | undefined> {
  return db.selectFrom('footage_bounding_boxes').select(['id', 'camera_uuid', 'box']).where('org_uuid', '=', orgUuid).where('id', '=', id).executeTakeFirst();
}
