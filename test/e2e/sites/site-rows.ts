import type { TestServer } from '../../helpers/server.js';

/** The tables a site file writes to, with the durable change log and the audit. */
export const SITE_TABLES = [
  'locations',
  'devices',
  'third_party_camera_discoveries',
  'schedules',
  'doors',
  'door_cameras',
  'access_rules',
  'access_rule_refs',
  'access_groups',
  'access_group_members',
  'door_labels',
  'people',
  'shipments',
  'users',
  'change_events',
  'audit_log',
] as const;

/** Row counts of every table a seed touches, to show that a refused file changed nothing. */
export async function siteRowCounts(server: TestServer): Promise<Record<string, number>> {
  const db = server.gatehouse.deps.store.db;
  const counts: Record<string, number> = {};
  for (const table of SITE_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
