import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { type WriteScope } from '../../bus/write.js';
import * as store from './store.js';
import type { ShipmentsTable } from './tables.js';

export interface ShipmentItem {
  name: string;
  quantity: number;
}

export const SHIPMENT_EMAIL_STATES = [
  'SHIPPING_CONFIRMATION_SUCCESS',
  'SHIPPING_CONFIRMATION_FAILURE',
  'SHIPPING_SHIPPED_SUCCESS',
  'SHIPPING_SHIPPED_FAILURE',
  'UNKNOWN',
] as const;
export type ShipmentEmailState = (typeof SHIPMENT_EMAIL_STATES)[number];

export interface ShipmentRecord {
  uuid: string;
  orgUuid: string;
  crmOppId: string;
  email: string;
  items: ShipmentItem[];
  trackingIdentifier: string | null;
  /** Null until a shipment e-mail has an outcome (SENDING while one is being sent). */
  customerShipmentEmailState: string | null;
  createdAtMillis: number;
}

/** A shipment's e-mail state as answered: the catalogue's enum has no "not yet" nor SENDING, only UNKNOWN. */
export const answeredEmailState = (s: ShipmentRecord): ShipmentEmailState =>
  s.customerShipmentEmailState && s.customerShipmentEmailState !== 'SENDING' ? (s.customerShipmentEmailState as ShipmentEmailState) : 'UNKNOWN';

export function toShipmentRecord(row: ShipmentsTable): ShipmentRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    crmOppId: row.crm_opp_id,
    email: row.email,
    items: fromJson<ShipmentItem[]>(row.items) ?? [],
    trackingIdentifier: row.tracking_identifier,
    customerShipmentEmailState: row.email_state,
    createdAtMillis: row.created_at_ms,
  };
}

/** Records a shipment of the writer's organization; a sales opportunity has at most one. */
export async function createShipment(
  w: WriteScope,
  input: { crmOppId: string; email: string; items?: ShipmentItem[]; trackingIdentifier?: string | null },
): Promise<ShipmentRecord> {
  if (await store.findShipmentByOpp(w.tx, w.actor.orgUuid, input.crmOppId)) throw fail('CONFLICT', `A shipment for ${input.crmOppId} already exists`);
  const row: ShipmentsTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    crm_opp_id: input.crmOppId,
    email: input.email,
    items: toJson(input.items ?? [])!,
    tracking_identifier: input.trackingIdentifier ?? null,
    email_state: null,
    email_attempt_at_ms: null,
    email_sent_at_ms: null,
    email_error: null,
    created_at_ms: w.nowMs,
  };
  await store.insertShipment(w.tx, row);
  const record = toShipmentRecord(row);
  w.change({ entity: 'SHIPMENT', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

/** The organization's shipment for a sales opportunity, or null. */
export async function findShipment(source: ReadSource, orgUuid: string, crmOppId: string): Promise<ShipmentRecord | null> {
  const row = await store.findShipmentByOpp(dbOf(source), orgUuid, crmOppId);
  return row ? toShipmentRecord(row) : null;
}

/** The shipments of these organizations recorded in [fromMs, toMs), oldest first (a partner's getShipments). */
export async function listShipments(source: ReadSource, orgUuids: readonly string[], fromMs: number, toMs: number): Promise<ShipmentRecord[]> {
  return (await store.listShipmentsOfOrgs(dbOf(source), orgUuids, fromMs, toMs)).map(toShipmentRecord);
}
