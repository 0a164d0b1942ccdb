export interface ShipmentsTable {
  uuid: string;
  org_uuid: string;
  /** The sales opportunity's identifier: unique within an organization. */
  crm_opp_id: string;
  email: string;
  /** JSON array of {name, quantity}. */
  items: string;
  tracking_identifier: string | null;
  /**
   * The "shipped" e-mail's state: null until a call claims it, SENDING while that call talks to the SMTP
   * server, then the outcome (customerShipmentEmailState) that every later call answers.
   */
  email_state: string | null;
  /** When the claiming call started: a SENDING claim older than the send timeout is abandoned and may be taken over. */
  email_attempt_at_ms: number | null;
  email_sent_at_ms: number | null;
  email_error: string | null;
  created_at_ms: number;
}

/** A return of hardware (RMA): what the platform's logistics keeps of it; the whole record is `record` (JSON). */
export interface RmasTable {
  uuid: string;
  org_uuid: string;
  device_uuid: string | null;
  status: string;
  warranty_approved: number;
  zendesk_ticket: number | null;
  /** JSON: the RMA as getRMAs answers it. */
  record: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface InternalTables {
  shipments: ShipmentsTable;
  rmas: RmasTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends InternalTables {}
}
