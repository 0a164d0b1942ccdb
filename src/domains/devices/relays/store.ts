import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { Tx } from '../../../store/reader.js';
import type { ThirdPartyCameraDiscoveriesTable } from '../tables.js';
import type { ThirdPartyCameraPasswordsTable, ThirdPartyRtspEndpointsTable } from './tables.js';

type Db = Kysely<DB> | Tx;

export async function upsertDiscoveryDetails(tx: Tx, orgUuid: string, mac: string, details: string, assignments?: number): Promise<void> {
  await tx
    .updateTable('third_party_camera_discoveries')
    .set({ details, ...(assignments === undefined ? {} : { assignments }) })
    .where('org_uuid', '=', orgUuid)
    .where('mac_address', '=', mac)
    .execute();
}

export async function findDiscoveryRow(db: Db, orgUuid: string, mac: string): Promise<ThirdPartyCameraDiscoveriesTable | undefined> {
  return db.selectFrom('third_party_camera_discoveries').selectAll().where('org_uuid', '=', orgUuid).where('mac_address', '=', mac).executeTakeFirst();
}

export async function listDiscoveryRows(db: Db, orgUuid: string): Promise<ThirdPartyCameraDiscoveriesTable[]> {
  return db.selectFrom('third_party_camera_discoveries').selectAll().where('org_uuid', '=', orgUuid).orderBy('mac_address').execute();
}

export async function insertEndpoint(tx: Tx, row: ThirdPartyRtspEndpointsTable): Promise<void> {
  await tx.insertInto('third_party_rtsp_endpoints').values(row).execute();
}

export async function listEndpoints(db: Db, orgUuid: string, mac: string): Promise<ThirdPartyRtspEndpointsTable[]> {
  return db
    .selectFrom('third_party_rtsp_endpoints')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('mac_address', '=', mac)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

export async function listEndpointsOfOrg(db: Db, orgUuid: string): Promise<ThirdPartyRtspEndpointsTable[]> {
  return db.selectFrom('third_party_rtsp_endpoints').selectAll().where('org_uuid', '=', orgUuid).orderBy('mac_address').orderBy('created_at_ms').execute();
}

export async function updateEndpoint(
  tx: Tx,
  orgUuid: string,
  uuid: string,
  patch: Partial<Pick<ThirdPartyRtspEndpointsTable, 'username' | 'password_sealed' | 'last_status' | 'camera_uuid'>>,
): Promise<void> {
  await tx.updateTable('third_party_rtsp_endpoints').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function releaseEndpointsOfCamera(tx: Tx, orgUuid: string, cameraUuid: string): Promise<void> {
  await tx.updateTable('third_party_rtsp_endpoints').set({ camera_uuid: null }).where('org_uuid', '=', orgUuid).where('camera_uuid', '=', cameraUuid).execute();
}

export async function insertPassword(tx: Tx, row: ThirdPartyCameraPasswordsTable): Promise<void> {
  await tx.insertInto('third_party_camera_passwords').values(row).execute();
}

export async function listPasswords(db: Db, orgUuid: string): Promise<ThirdPartyCameraPasswordsTable[]> {
  return db.selectFrom('third_party_camera_passwords').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('uuid').execute();
}

export async function findPassword(db: Db, orgUuid: string, uuid: string): Promise<ThirdPartyCameraPasswordsTable | undefined> {
  return db.selectFrom('third_party_camera_passwords').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function deletePassword(tx: Tx, orgUuid: string, uuid: string): Promise<void> {
  await tx.deleteFrom('third_party_camera_passwords').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}
