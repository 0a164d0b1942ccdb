import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { Tx } from '../../../store/reader.js';
import type { DoorControllerRulesTable } from './tables.js';

type Db = Kysely<DB> | Tx;

export async function insertRule(tx: Tx, row: DoorControllerRulesTable): Promise<void> {
  await tx.insertInto('door_controller_rules').values(row).execute();
}

export async function findRule(db: Db, orgUuid: string, deviceUuid: string, uuid: string): Promise<DoorControllerRulesTable | undefined> {
  return db
    .selectFrom('door_controller_rules')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', '=', deviceUuid)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function listRules(db: Db, orgUuid: string, deviceUuid: string): Promise<DoorControllerRulesTable[]> {
  return db
    .selectFrom('door_controller_rules')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', '=', deviceUuid)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

export async function updateRule(tx: Tx, row: DoorControllerRulesTable): Promise<void> {
  const { uuid, org_uuid, ...rest } = row;
  await tx.updateTable('door_controller_rules').set(rest).where('org_uuid', '=', org_uuid).where('uuid', '=', uuid).execute();
}

export async function deleteRule(tx: Tx, orgUuid: string, uuid: string): Promise<void> {
  await tx.deleteFrom('door_controller_rules').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}
