import type { Generated } from 'kysely';

/**
 * PENDING: waiting for its next attempt. IN_FLIGHT: claimed by an instance until `next_attempt_at_ms` (its
 * lease); a crashed instance's rows become due again when the lease runs out. DELIVERED and FAILED are final.
 */
export const DELIVERY_STATUSES = ['PENDING', 'IN_FLIGHT', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One HTTP delivery owed to a third party: a chat message, a webhook action. */
export interface OutboxDeliveriesTable {
  /** Order of creation: the delivery log pages by it. */
  id: Generated<number>;
  /** The stable delivery id, sent with every attempt so that a receiver can drop a repeat. */
  uuid: string;
  org_uuid: string;
  /** What the delivery is for, e.g. CHAT_POLICY_ALERT or BUTTON_RULE_WEBHOOK. */
  kind: string;
  /** Unique within the organization: a second enqueue with the same key (another instance, a replay) is a no-op. */
  dedupe_key: string;
  target_url: string;
  /** JSON object of extra request headers. */
  headers: string;
  /** The JSON body, as text. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at_ms: number;
  /** Random per claim: only the instance holding the claim may record the outcome. */
  claim_token: string | null;
  last_error: string | null;
  last_status_code: number | null;
  created_at_ms: number;
  updated_at_ms: number;
  delivered_at_ms: number | null;
}

/** One attempt at a delivery: what the delivery log lists under it. */
export interface OutboxAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  /** 1 for the first attempt. */
  attempt: number;
  at_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface OutboxTables {
  outbox_deliveries: OutboxDeliveriesTable;
  outbox_attempts: OutboxAttemptsTable;
}

/** A delivery as the store answers it (its id generated). */
export type DeliveryRow = Omit<OutboxDeliveriesTable, 'id'> & { id: number };
/** One attempt of a delivery, as the store answers it. */
export type AttemptRow = Omit<OutboxAttemptsTable, 'id'>;

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../store/schema.js' {
  interface DB extends OutboxTables {}
}
