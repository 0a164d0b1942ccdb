import type { Kysely, Migration } from 'kysely';

/** The chatbot's chats and automated prompts (chatbot/*, the platform's newer spec; issue 33). */
export function chatbot(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('chat_records')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('prompt_uuid', 'varchar(22)')
        .addColumn('context_id', 'text')
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(32)', (c) => c.notNull())
        .addColumn('visibility', 'varchar(32)', (c) => c.notNull())
        .addColumn('queried_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('responded_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chat_records_by_prompt').on('chat_records').columns(['org_uuid', 'prompt_uuid', 'queried_at_ms']).execute();
      await db.schema
        .createTable('automated_prompts')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('response_template', 'text')
        .addColumn('invoke_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('frequency_value', 'integer', (c) => c.notNull())
        .addColumn('frequency_unit', 'varchar(16)', (c) => c.notNull())
        .addColumn('permission_group_uuid', 'varchar(22)')
        .addColumn('follow_up_actions', 'text', (c) => c.notNull())
        .addColumn('next_run_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('automated_prompts_due').on('automated_prompts').columns(['next_run_ms']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('automated_prompts').execute();
      await db.schema.dropTable('chat_records').execute();
    },
  };
}
