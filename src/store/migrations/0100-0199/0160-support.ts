import type { Kysely, Migration } from 'kysely';
import { withSerialId } from '../../columns.js';
import type { DialectName } from '../../database.js';

/**
 * Support tickets, RMAs and feedback (help/*, issue 34), and the partner's hardware pool and deals
 * (partner/getListOfAvailableHardware, registerCameraToClient, registerDeal). Ticket ids are one serial
 * across organizations, as a help desk numbers its tickets.
 */
export function supportAndPartnerHardware(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('support_tickets'), dialect)
        .addColumn('uuid', 'varchar(22)', (c) => c.notNull().unique())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_uuid', 'varchar(22)')
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('attachment_key', 'varchar(128)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_tickets_by_org').on('support_tickets').columns(['org_uuid', 'kind', 'created_at_ms']).execute();
      await db.schema
        .createTable('partner_hardware')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('partner_org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('serial_number', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('mac_address', 'varchar(17)')
        .addColumn('device_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('device_model', 'varchar(32)', (c) => c.notNull())
        .addColumn('wifi_ssid', 'varchar(64)')
        .addColumn('wifi_psk_sealed', 'text')
        .addColumn('client_org_uuid', 'varchar(22)')
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('registered_at_ms', 'bigint')
        .execute();
      await db.schema.createIndex('partner_hardware_by_partner').on('partner_hardware').columns(['partner_org_uuid', 'client_org_uuid']).execute();
      await db.schema
        .createTable('partner_deals')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('partner_org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('partner_deals_by_partner').on('partner_deals').columns(['partner_org_uuid', 'created_at_ms']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['partner_deals', 'partner_hardware', 'support_tickets']) await db.schema.dropTable(table).execute();
    },
  };
}
