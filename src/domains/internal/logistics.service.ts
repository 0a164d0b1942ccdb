import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import { answeredEmailState, listShipments, type ShipmentRecord } from './service.js';
import * as store from './logistics.store.js';

/** The catalogue's RMAStatusEnum. */
export const RMA_STATUSES = ['INITIATED', 'PENDING', 'APPROVED', 'INPROGRESS', 'COMPLETE', 'RETURN', 'STOLEN', 'OPERATIONAL', 'FULFILLMENT_ERROR'] as const;
export type RmaStatus = (typeof RMA_STATUSES)[number];

/** An RMA as getRMAs answers it (the catalogue's RMAType, with the fields Gatehouse keeps). */
export interface RmaRecord {
  uuid: string;
  orgUuid: string;
  deviceUuid: string | null;
  status: RmaStatus;
  briefDescription: string | null;
  zenDeskTicketSubject: string;
  zendeskTicket: number | null;
  warrantyApproved: boolean;
  timestampSec: number;
  lastUpdatedAtSec: number;
  deleted: boolean;
}

export interface RmaInput {
  subject: string;
  deviceUuid?: string | null;
  status?: RmaStatus;
  description?: string | null;
  zendeskTicket?: number | null;
  warrantyApproved?: boolean;
}

/** Records an RMA of the writer's organization (a site file's `rmas`) and announces it. */
export async function createRma(w: WriteScope, input: RmaInput): Promise<RmaRecord> {
  const record: RmaRecord = {
    uuid: newRuuid(),
    orgUuid: w.actor.orgUuid,
    deviceUuid: input.deviceUuid ?? null,
    status: input.status ?? 'INITIATED',
    briefDescription: input.description ?? null,
    zenDeskTicketSubject: input.subject,
    zendeskTicket: input.zendeskTicket ?? null,
    warrantyApproved: input.warrantyApproved ?? false,
    timestampSec: Math.floor(w.nowMs / 1000),
    lastUpdatedAtSec: Math.floor(w.nowMs / 1000),
    deleted: false,
  };
  await store.insertRma(w.tx, {
    uuid: record.uuid,
    org_uuid: record.orgUuid,
    device_uuid: record.deviceUuid,
    status: record.status,
    warranty_approved: toDbBool(record.warrantyApproved)!,
    zendesk_ticket: record.zendeskTicket,
    record: toJson(record)!,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  });
  w.change({ entity: 'RMA', entityUuid: record.uuid, deviceUuid: record.deviceUuid, type: 'CREATE', update: record });
  return record;
}

/** The organization's RMAs by subject (a site file seeded again keeps the ones it made). */
export async function rmaUuidsBySubject(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return new Map((await store.listRmas(dbOf(source), orgUuid)).map((r) => [fromJson<RmaRecord>(r.record)!.zenDeskTicketSubject, r.uuid]));
}

/** `getRMAs`: the organization's RMAs, newest first. */
export async function getRmas(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<RmaRecord[]> {
  return (await store.listRmas(deps.store.db, ctx.orgUuid)).map((r) => fromJson<RmaRecord>(r.record)!);
}

/** `getWarrantyApprovedRMAs`: the support tickets of the organization's RMAs approved under warranty. */
export async function getWarrantyApprovedRmaTickets(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<number[]> {
  return (await store.listWarrantyApprovedTickets(deps.store.db, ctx.orgUuid)).filter((t): t is number => t !== null);
}

/** Shipments newer than this many days are still on their way; older ones have arrived. */
const IN_TRANSIT_DAYS = 7;

function toCustomerShipment(s: ShipmentRecord, nowMs: number) {
  const shipped = s.trackingIdentifier !== null;
  const delivered = shipped && nowMs - s.createdAtMillis > IN_TRANSIT_DAYS * 86_400_000;
  return {
    uuid: s.uuid,
    'rhombus-orgUuid': s.orgUuid,
    'rhombus-salesForceOpportunityId': s.crmOppId,
    'rhombus-customerEmails': s.email,
    'ait-carrierTrackingNumber': s.trackingIdentifier,
    'ait-shipmentDate': new Date(s.createdAtMillis).toISOString(),
    'ait-shippedItems': s.items.map((i) => ({ partNumber: i.name, quantityShipped: i.quantity, serialNumber: null })),
    shipmentCategory: 'PURCHASE_ORDER',
    shipmentState: delivered ? 'DELIVERED' : shipped ? 'SHIPPED' : 'CREATED',
    shipmentEmailState: answeredEmailState(s),
    lastStateUpdateSec: Math.floor(s.createdAtMillis / 1000),
  };
}

/** `logistics/getShipments`: the organization's shipments recorded between two instants (epoch seconds), oldest first. */
export async function getShipments(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: CallerContext,
  input: { startTimeSec?: number | null; endTimeSec?: number | null },
) {
  const fromMs = (input.startTimeSec ?? 0) * 1000;
  const toMs = input.endTimeSec != null ? input.endTimeSec * 1000 : deps.clock.now() + 1;
  if (toMs < fromMs) throw fail('INVALID_VALUE', 'endTimeSec: must not be before startTimeSec');
  const now = deps.clock.now();
  return (await listShipments(deps, [ctx.orgUuid], fromMs, toMs)).map((s) => toCustomerShipment(s, now));
}
