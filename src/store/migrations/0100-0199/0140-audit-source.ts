import type { Kysely, Migration } from 'kysely';

/** Where each audited write came from: the request's client address and user agent (the audit feed's source fields; issue 33). */
export function auditSource(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('audit_log').addColumn('source_ip', 'varchar(64)').execute();
      await db.schema.alterTable('audit_log').addColumn('user_agent', 'varchar(500)').execute();
    },
  };
}
