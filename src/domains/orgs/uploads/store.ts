import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { preparedQuery } from '../../../store/prepared-query.js';
import type { UploadedImagesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertImage(db: Db, row: UploadedImagesTable): Promise<void> {
  await db.insertInto('uploaded_images').values(row).execute();
}

export async function findImage(db: Db, orgUuid: string, uuid: string): Promise<UploadedImagesTable | undefined> {
  return db.selectFrom('uploaded_images').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's images of a purpose (of one target, when given; of every target, with undefined), oldest first. */
export async function listImages(db: Db, orgUuid: string, purposes: readonly string[], targetUuid?: string | null): Promise<UploadedImagesTable[]> {
  let q = db.selectFrom('uploaded_images').selectAll().where('org_uuid', '=', orgUuid).where('purpose', 'in', purposes);
  if (targetUuid !== undefined) q = targetUuid === null ? q.where('target_uuid', 'is', null) : q.where('target_uuid', '=', targetUuid);
  return q.orderBy('created_at_ms').orderBy('uuid').execute();
}

/** The purposes of an organization's logos, one of each (getOrgV2 names them). */
export const LOGO_PURPOSES = ['COMPANY_LOGO', 'KEYPAD_LOGO', 'RHOMBUS_KEY_LOGO'] as const;

/** The organization's logos (its own images of the one-each purposes), oldest first: a point read, as getOrgV2 makes one per call. */
export const listOrgLogos = preparedQuery(1, (db, orgUuid: string) =>
  db
    .selectFrom('uploaded_images')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('purpose', 'in', LOGO_PURPOSES)
    .where('target_uuid', 'is', null)
    .orderBy('created_at_ms')
    .orderBy('uuid'),
);

export async function deleteImages(db: Db, uuids: readonly string[]): Promise<void> {
  if (uuids.length > 0) await db.deleteFrom('uploaded_images').where('uuid', 'in', uuids).execute();
}
