import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { RawHttpStreamsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertStream(db: Db, row: RawHttpStreamsTable): Promise<void> {
  await db.insertInto('raw_http_streams').values(row).execute();
}

/** The stream a media path names, of whichever organization. */
export async function findStreamByPath(db: Db, customPathPart: string): Promise<RawHttpStreamsTable | undefined> {
  return db.selectFrom('raw_http_streams').selectAll().where('custom_path_part', '=', customPathPart).executeTakeFirst();
}

/** The organization's streams, of one camera when given, oldest first. */
export async function listStreams(db: Db, orgUuid: string, deviceUuid?: string): Promise<RawHttpStreamsTable[]> {
  return db
    .selectFrom('raw_http_streams')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(deviceUuid !== undefined, (q) => q.where('device_uuid', '=', deviceUuid!))
    .orderBy('created_at_ms')
    .orderBy('custom_path_part')
    .execute();
}

export async function deleteStream(db: Db, orgUuid: string, deviceUuid: string, customPathPart: string): Promise<boolean> {
  const result = await db
    .deleteFrom('raw_http_streams')
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', '=', deviceUuid)
    .where('custom_path_part', '=', customPathPart)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
