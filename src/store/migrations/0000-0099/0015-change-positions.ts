import { sql, type Kysely, type Migration } from 'kysely';
import { randomBytes } from 'node:crypto';

/**
 * The stream's resume positions (docs/streaming.md): every change carries its organization's position, a
 * gap-free count per organization assigned in the write's transaction from `change_positions` (one row per
 * organization, so unrelated organizations never wait for each other); `logged_at_ms` dates the row for the
 * retention of the change log; `store_identity` names the store, from which the bus namespace is derived.
 * Existing changes are numbered per organization in id order.
 */
export function changePositions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('change_events')
        .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('change_events')
        .addColumn('logged_at_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update change_events set position = s.rn, logged_at_ms = change_events.timestamp_ms
        from (select id, row_number() over (partition by org_uuid order by id) as rn from change_events) as s
        where s.id = change_events.id`.execute(db);
      await db.schema.createIndex('change_events_by_org_position').on('change_events').columns(['org_uuid', 'position']).unique().execute();
      await db.schema
        .createTable('change_positions')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('last_position', 'bigint', (c) => c.notNull())
        .addColumn('pruned_through', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into change_positions (org_uuid, last_position, pruned_through)
        select org_uuid, max(position), 0 from change_events group by org_uuid`.execute(db);
      await db.schema
        .createTable('store_identity')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .execute();
      await sql`insert into store_identity (id) values (${randomBytes(8).toString('hex')})`.execute(db);
    },
  };
}
