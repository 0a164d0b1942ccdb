/**
 * The entities the support domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { SupportTicketRecord } from './service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    SUPPORT_TICKET: SupportTicketRecord; // a support ticket, RMA or feedback the organization sent
  }
}
