import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { ApiTokenApplicationsTable, CertificateAuthoritiesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertApplication(db: Db, row: ApiTokenApplicationsTable): Promise<void> {
  await db.insertInto('api_token_applications').values(row).execute();
}

export async function listApplications(db: Db, orgUuid: string): Promise<ApiTokenApplicationsTable[]> {
  return db.selectFrom('api_token_applications').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('token_uuid').execute();
}

export async function findAuthority(db: Db, name: string): Promise<CertificateAuthoritiesTable | undefined> {
  return db.selectFrom('certificate_authorities').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Keeps a new authority unless another instance kept one first (the caller reads back whichever won). */
export async function insertAuthorityIfAbsent(db: Db, row: CertificateAuthoritiesTable): Promise<void> {
  await db
    .insertInto('certificate_authorities')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
