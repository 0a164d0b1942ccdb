import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { write } from '../../bus/write.js';
import { MAIL_TIMEOUTS_MS, sendMail, type MailOutcome } from './mailer.js';
import { toShipmentRecord, type ShipmentEmailState } from './service.js';
import * as store from './store.js';
import type { ShipmentsTable } from './tables.js';

type MailDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>;

export interface ShipmentEmailAnswer {
  customerShipmentEmailState: ShipmentEmailState;
  legacyMsg: string;
  trackingIdentifier: string | null;
  warningMsg?: string;
}

/** The longest a send can take before its timeouts end it. */
const SEND_BOUND_MS = MAIL_TIMEOUTS_MS.connectionTimeout + MAIL_TIMEOUTS_MS.greetingTimeout + MAIL_TIMEOUTS_MS.socketTimeout;
/** A claim older than twice that belongs to a call that died: another call may take it over. */
const ABANDONED_CLAIM_MS = 2 * SEND_BOUND_MS;
const WAIT_POLL_MS = 100;
const MAX_MATCHES = 10;

/**
 * The shipment of a sales opportunity. Internal keys serve the whole platform, so the lookup is not bound
 * to the caller's organization; the caller's own shipment wins, and an identifier that several other
 * organizations use is refused rather than guessed.
 */
async function shipmentOf(deps: Pick<Deps, 'store'>, ctx: CallerContext, crmOppId: string): Promise<ShipmentsTable | null> {
  const rows = await store.findShipmentsByOppInAnyOrg(deps.store.db, crmOppId, MAX_MATCHES);
  const own = rows.find((r) => r.org_uuid === ctx.orgUuid);
  if (own) return own;
  if (rows.length > 1)
    throw fail('CONFLICT', `Several organizations have a shipment for sales opportunity ${crmOppId}; use an internal key of the shipment's organization`);
  return rows[0] ?? null;
}

function shippedMail(s: ShipmentsTable): { to: string; subject: string; text: string } {
  const items = toShipmentRecord(s).items.map((i) => `  - ${i.quantity} x ${i.name}`);
  const text = [
    'Hello,',
    '',
    'Your order has shipped.',
    '',
    `Tracking number: ${s.tracking_identifier ?? 'not available yet'}`,
    ...(items.length > 0 ? ['Items:', ...items] : []),
    '',
    `Order reference: ${s.crm_opp_id}`,
    '',
  ].join('\n');
  return { to: s.email, subject: `Your order ${s.crm_opp_id} has shipped`, text };
}

/** What a recorded outcome answers: every call after the one that sent. */
function answerOf(s: ShipmentsTable, repeated: boolean): ShipmentEmailAnswer {
  const success = s.email_state === 'SHIPPING_SHIPPED_SUCCESS';
  return {
    customerShipmentEmailState: success ? 'SHIPPING_SHIPPED_SUCCESS' : 'SHIPPING_SHIPPED_FAILURE',
    legacyMsg: success ? `Shipped e-mail sent to ${s.email}` : `Shipped e-mail to ${s.email} failed: ${s.email_error ?? 'unknown reason'}`,
    trackingIdentifier: s.tracking_identifier,
    ...(repeated
      ? { warningMsg: `The shipped e-mail was already attempted at ${new Date(s.email_attempt_at_ms ?? 0).toISOString()}; it was not sent again` }
      : {}),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits, bounded, for the call that holds the claim to record its outcome. */
async function awaitOutcome(deps: Pick<Deps, 'store'>, uuid: string): Promise<ShipmentsTable | null> {
  for (let waited = 0; waited < SEND_BOUND_MS + 5_000; waited += WAIT_POLL_MS) {
    const row = await store.findShipmentByUuid(deps.store.db, uuid);
    if (row && row.email_state !== 'SENDING') return row;
    await sleep(WAIT_POLL_MS);
  }
  return null;
}

/**
 * Sends the "shipped" e-mail of a sales opportunity's shipment, once. The attempt is claimed in the store
 * before anything is sent, so of two concurrent calls only one talks to the SMTP server; the other waits
 * for its outcome. The outcome (accepted, or refused / unreachable) is recorded, and every later call
 * answers it without sending again.
 */
export async function sendShipmentShippedEmail(
  deps: MailDeps,
  ctx: CallerContext,
  input: { crmOppId?: string; salesforceOppId?: string },
): Promise<ShipmentEmailAnswer> {
  const { crmOppId, salesforceOppId } = input;
  if (crmOppId && salesforceOppId && crmOppId !== salesforceOppId) throw fail('INVALID_VALUE', 'crmOppId and salesforceOppId name different opportunities');
  const oppId = (crmOppId ?? salesforceOppId)?.trim();
  if (!oppId) throw fail('INVALID_VALUE', 'crmOppId is required');

  const shipment = await shipmentOf(deps, ctx, oppId);
  if (!shipment) return { customerShipmentEmailState: 'UNKNOWN', legacyMsg: `No shipment is known for sales opportunity ${oppId}`, trackingIdentifier: null };
  const smtpUrl = deps.config.smtpUrl;
  if (!smtpUrl) {
    // Nothing was attempted, so nothing is recorded: once a server is configured, the e-mail can go.
    return {
      customerShipmentEmailState: 'SHIPPING_SHIPPED_FAILURE',
      legacyMsg: 'No SMTP server is configured (GATEHOUSE_SMTP_URL)',
      trackingIdentifier: shipment.tracking_identifier,
    };
  }

  const claimed = await write(deps, ctx, async (w) => {
    const won = await store.claimShipmentEmail(w.tx, shipment.uuid, w.nowMs, w.nowMs - ABANDONED_CLAIM_MS);
    if (won) w.audit({ entity: 'SHIPMENT', entityUuid: shipment.uuid, action: 'EMAIL_CLAIM', orgUuid: shipment.org_uuid });
    return won;
  });
  if (!claimed) {
    const recorded = await awaitOutcome(deps, shipment.uuid);
    if (!recorded)
      return {
        customerShipmentEmailState: 'UNKNOWN',
        legacyMsg: 'The shipped e-mail is being sent by another call',
        trackingIdentifier: shipment.tracking_identifier,
      };
    return answerOf(recorded, true);
  }

  const outcome: MailOutcome = await sendMail(smtpUrl, { from: deps.config.mailFrom.shipping, ...shippedMail(shipment) });
  return write(deps, ctx, async (w) => {
    await store.recordShipmentEmail(w.tx, shipment.uuid, {
      state: outcome.sent ? 'SHIPPING_SHIPPED_SUCCESS' : 'SHIPPING_SHIPPED_FAILURE',
      sentAtMs: outcome.sent ? w.nowMs : null,
      error: outcome.sent ? null : outcome.reason,
    });
    const row = (await store.findShipmentByUuid(w.tx, shipment.uuid))!;
    w.change({ entity: 'SHIPMENT', entityUuid: row.uuid, type: 'UPDATE', update: toShipmentRecord(row), orgUuid: row.org_uuid });
    return answerOf(row, false);
  });
}
