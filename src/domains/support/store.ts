import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { SupportTicketsTable } from './tables.js';

type Db = Kysely<DB>;
export type SupportTicketRow = Selectable<SupportTicketsTable>;

/** Inserts a ticket and answers the id the serial gave it. */
export async function insertTicket(db: Db, row: Omit<SupportTicketsTable, 'id'>): Promise<number> {
  const inserted = await db.insertInto('support_tickets').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Stores the record again once the serial has numbered it. */
export async function updateTicketRecord(db: Db, id: number, record: string): Promise<void> {
  await db.updateTable('support_tickets').set({ record }).where('id', '=', id).execute();
}

export interface TicketQuery {
  orgUuid: string;
  kinds: readonly string[];
  status: string;
  fromMs?: number;
  toMs?: number;
}

function ticketsOf(db: Db, q: TicketQuery) {
  return db
    .selectFrom('support_tickets')
    .where('org_uuid', '=', q.orgUuid)
    .where('kind', 'in', q.kinds)
    .where('status', '=', q.status)
    .$if(q.fromMs !== undefined, (b) => b.where('created_at_ms', '>=', q.fromMs!))
    .$if(q.toMs !== undefined, (b) => b.where('created_at_ms', '<', q.toMs!));
}

export async function countTickets(db: Db, q: TicketQuery): Promise<number> {
  const row = await ticketsOf(db, q)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the organization's tickets, newest first (at most `limit`, an upper bound for a window). */
export async function listTickets(db: Db, q: TicketQuery & { offset: number; limit: number }): Promise<SupportTicketRow[]> {
  return ticketsOf(db, q).selectAll().orderBy('created_at_ms', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
}
