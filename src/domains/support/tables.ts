import type { Generated } from 'kysely';

/** A support ticket, RMA or feedback of an organization (help/*); the whole record is `record` (JSON). */
export interface SupportTicketsTable {
  /** The ticket id the help operations answer (one serial across organizations). */
  id: Generated<number>;
  uuid: string;
  org_uuid: string;
  /** One of TICKET_KINDS. */
  kind: string;
  status: string;
  /** The user whose key opened it (openTicketsV2's userTickets); null for a key of no user. */
  user_uuid: string | null;
  /** JSON: the ticket as the stream carries it. */
  record: string;
  /** The attached file on the media storage (src/footage/uploaded-files.ts), if any. */
  attachment_key: string | null;
  created_at_ms: number;
}

export interface SupportTables {
  support_tickets: SupportTicketsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends SupportTables {}
}
