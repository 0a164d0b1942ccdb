import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { CameraBatchRegistrationsTable, CameraBatchRegistrationUsesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertBatchToken(db: Db, row: CameraBatchRegistrationsTable): Promise<void> {
  await db.insertInto('camera_batch_registrations').values(row).execute();
}

export async function findBatchToken(db: Db, token: string): Promise<CameraBatchRegistrationsTable | undefined> {
  return db.selectFrom('camera_batch_registrations').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function insertBatchUse(db: Db, row: Omit<CameraBatchRegistrationUsesTable, 'id'>): Promise<void> {
  await db.insertInto('camera_batch_registration_uses').values(row).execute();
}

/** The uses of a token since an instant, oldest first, at most `limit`. */
export async function listBatchUses(db: Db, orgUuid: string, token: string, sinceMs: number, limit: number) {
  return db
    .selectFrom('camera_batch_registration_uses')
    .select(['device_uuid', 'hardware_uuid', 'result', 'ts'])
    .where('org_uuid', '=', orgUuid)
    .where('token', '=', token)
    .where('ts', '>=', sinceMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(limit)
    .execute();
}
