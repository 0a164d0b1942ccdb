import type { Kysely, Migration } from 'kysely';

/**
 * Fields the platform's clients read (issue 33): a user's e-mail address as it was typed (the stored one is
 * lowercase, to compare), and how sure the camera was of each licence plate it read.
 */
export function clientFields(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('email_case_sensitive', 'varchar(254)').execute();
      await db.schema.alterTable('vehicle_events').addColumn('confidence', 'real').execute();
    },
  };
}
