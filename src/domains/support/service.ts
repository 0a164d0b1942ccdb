import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { write, type WriteScope } from '../../bus/write.js';
import { uploadedFiles } from '../../footage/uploaded-files.js';
import { findDevice, type DeviceRecord } from '../devices/service.js';
import { findDevicesBySerial } from '../devices/lifecycle/device-moves.service.js';
import { createRma } from '../internal/logistics.service.js';
import { sendMail } from '../internal/mailer.js';
import { getOrg } from '../orgs/service.js';
import type { CheckedAttachment } from './attachments.js';
import * as store from './store.js';

/** What the organization sent to support: a ticket, a hardware return (RMA) or feedback on the product. */
export const TICKET_KINDS = ['TICKET', 'RMA', 'FEEDBACK'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];
/** The kinds openTickets(V2) list: feedback is no ticket to follow. */
const LISTED_KINDS: readonly TicketKind[] = ['TICKET', 'RMA'];
/** Gatehouse keeps tickets; solving them is the help desk's (the operator's) work, so every ticket stays open. */
const OPEN = 'open';

/** A support ticket as the stream carries it. */
export interface SupportTicketRecord {
  uuid: string;
  orgUuid: string;
  ticketId: number;
  kind: TicketKind;
  status: string;
  subject: string;
  body: string;
  userUuid: string | null;
  productType: string | null;
  serviceType: string | null;
  serialNumbers: string[];
  collaborators: string[];
  consoleAccessGranted: boolean;
  /** The device an RMA returns. */
  deviceUuid: string | null;
  /** What an RMA or a ticket adds: contact, return address. */
  details: Record<string, string>;
  attachment: { fileName: string; contentType: string; byteSize: number } | null;
  createdAtMillis: number;
}

export type TicketDraft = Pick<SupportTicketRecord, 'kind' | 'subject' | 'body'> &
  Partial<Pick<SupportTicketRecord, 'productType' | 'serviceType' | 'serialNumbers' | 'collaborators' | 'consoleAccessGranted' | 'deviceUuid' | 'details'>>;

/** What a help operation that opens a ticket answers. */
export interface OpenedTicket {
  success: true;
  ticketId: number;
  warningMsg?: string;
}

type SupportDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>;

/**
 * Stores a ticket (and its attachment, written before the transaction and removed if it fails), announces it,
 * then e-mails it to the operator's support address when one is configured. A mail that fails leaves the
 * ticket stored and says why in warningMsg. `alsoInWrite` runs in the same transaction with the new id.
 */
export async function openTicket(
  deps: SupportDeps,
  ctx: CallerContext,
  draft: TicketDraft,
  attachment: CheckedAttachment | null = null,
  alsoInWrite?: (w: WriteScope, ticketId: number) => Promise<void>,
): Promise<OpenedTicket> {
  const subject = draft.subject.trim();
  if (!subject && !draft.body.trim()) throw fail('INVALID_VALUE', 'subject: give a subject or a body');
  const uuid = newRuuid();
  const files = uploadedFiles(deps.config.dataDir);
  const key = attachment ? attachment.keyFor(ctx.orgUuid, uuid) : null;
  if (attachment && key) await files.write(key, attachment.bytes);
  let record: SupportTicketRecord;
  try {
    record = await write(deps, ctx, async (w) => {
      const r: SupportTicketRecord = {
        uuid,
        orgUuid: ctx.orgUuid,
        ticketId: 0,
        kind: draft.kind,
        status: OPEN,
        subject: subject || draft.body.trim().split('\n')[0].slice(0, 120),
        body: draft.body,
        userUuid: ctx.userUuid,
        productType: draft.productType ?? null,
        serviceType: draft.serviceType ?? null,
        serialNumbers: draft.serialNumbers ?? [],
        collaborators: draft.collaborators ?? [],
        consoleAccessGranted: draft.consoleAccessGranted ?? false,
        deviceUuid: draft.deviceUuid ?? null,
        details: draft.details ?? {},
        attachment: attachment ? { fileName: attachment.fileName, contentType: attachment.contentType, byteSize: attachment.bytes.length } : null,
        createdAtMillis: w.nowMs,
      };
      const row = { uuid, org_uuid: ctx.orgUuid, kind: r.kind, status: r.status, user_uuid: r.userUuid, attachment_key: key, created_at_ms: w.nowMs };
      r.ticketId = await store.insertTicket(w.tx, { ...row, record: toJson(r)! });
      await store.updateTicketRecord(w.tx, r.ticketId, toJson(r)!);
      await alsoInWrite?.(w, r.ticketId);
      w.change({ entity: 'SUPPORT_TICKET', entityUuid: uuid, deviceUuid: r.deviceUuid, type: 'CREATE', update: r });
      return r;
    });
  } catch (e) {
    if (key) await files.remove(key);
    throw e;
  }
  const warningMsg = await mailToSupport(deps, record);
  return { success: true, ticketId: record.ticketId, ...(warningMsg ? { warningMsg } : {}) };
}

/** E-mails the ticket to GATEHOUSE_SUPPORT_EMAIL; answers why it could not, or nothing (sent, or no address set). */
async function mailToSupport(deps: Pick<Deps, 'store' | 'config'>, t: SupportTicketRecord): Promise<string | undefined> {
  const to = deps.config.supportEmail;
  if (!to) return undefined;
  if (!deps.config.smtpUrl) return 'The ticket is stored; it was not e-mailed to support: no SMTP server is configured (GATEHOUSE_SMTP_URL)';
  const org = await getOrg(deps, t);
  const lines = [
    `${t.kind} #${t.ticketId} from ${org.name} (${t.orgUuid})${t.userUuid ? `, user ${t.userUuid}` : ''}`,
    '',
    t.body,
    '',
    ...(t.deviceUuid ? [`Device: ${t.deviceUuid}`] : []),
    ...(t.serialNumbers.length ? [`Serial numbers: ${t.serialNumbers.join(', ')}`] : []),
    ...(t.productType || t.serviceType ? [`Product: ${t.productType ?? '-'}; service: ${t.serviceType ?? '-'}`] : []),
    ...(t.collaborators.length ? [`Collaborators: ${t.collaborators.join(', ')}`] : []),
    ...(t.consoleAccessGranted ? ['Console access granted to support'] : []),
    ...Object.entries(t.details).map(([k, v]) => `${k}: ${v}`),
    ...(t.attachment ? [`Attachment: ${t.attachment.fileName} (${t.attachment.contentType}, ${t.attachment.byteSize} bytes), kept with the ticket`] : []),
  ];
  const outcome = await sendMail(deps.config.smtpUrl, {
    from: deps.config.mailFrom.support,
    to,
    subject: `[${t.kind} #${t.ticketId}] ${t.subject}`,
    text: lines.join('\n'),
  });
  return outcome.sent ? undefined : `The ticket is stored; it was not e-mailed to support: ${outcome.reason}`;
}

/** help/feedback: feedback on the product, kept and sent like a ticket, never listed as one. */
export async function sendFeedback(deps: SupportDeps, ctx: CallerContext, feedback: string): Promise<OpenedTicket> {
  if (!feedback.trim()) throw fail('INVALID_VALUE', 'feedback: must not be empty');
  return openTicket(deps, ctx, { kind: 'FEEDBACK', subject: 'Product feedback', body: feedback });
}

export interface RmaInput {
  serialNumber?: string | null;
  deviceUuid?: string | null;
  deviceName?: string | null;
  problem?: string | null;
  contactName?: string | null;
  contactPhoneNumber?: string | null;
  returnShippingAddress?: Record<string, string | null | undefined> | null;
}

/** The device an RMA names, by uuid or serial number, of the caller's organization only. */
async function rmaDevice(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: RmaInput): Promise<DeviceRecord> {
  if (input.deviceUuid) {
    const device = await findDevice(deps, ctx.orgUuid, input.deviceUuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    if (input.serialNumber && device.serialNumber !== input.serialNumber)
      throw fail('INVALID_VALUE', `serialNumber: device ${device.uuid} has serial number ${device.serialNumber ?? 'none'}`);
    return device;
  }
  const serial = input.serialNumber?.trim();
  if (!serial) throw fail('INVALID_VALUE', 'serialNumber: name the device to return');
  const device = (await findDevicesBySerial(deps, ctx.orgUuid, [serial])).get(serial);
  if (!device) throw fail('NOT_FOUND', `Device with serial number ${serial}`);
  return device;
}

/**
 * help/rma: a hardware return of one of the organization's devices: a ticket, and the RMA that getRMAs lists
 * (its zendeskTicket is the ticket's id), in one write.
 */
export async function processRma(deps: SupportDeps, ctx: CallerContext, input: RmaInput): Promise<OpenedTicket> {
  const device = await rmaDevice(deps, ctx, input);
  const problem = input.problem?.trim();
  if (!problem) throw fail('INVALID_VALUE', 'problem: say what is wrong with the device');
  const address = Object.values(input.returnShippingAddress ?? {})
    .filter((v): v is string => !!v?.trim())
    .join(', ');
  const details = Object.fromEntries(
    Object.entries({ contactName: input.contactName, contactPhoneNumber: input.contactPhoneNumber, returnShippingAddress: address }).filter(
      (e): e is [string, string] => !!e[1]?.trim(),
    ),
  );
  const subject = `RMA: ${input.deviceName?.trim() || device.name} (${device.serialNumber ?? device.uuid})`;
  return openTicket(
    deps,
    ctx,
    { kind: 'RMA', subject, body: problem, deviceUuid: device.uuid, serialNumbers: device.serialNumber ? [device.serialNumber] : [], details },
    null,
    async (w, ticketId) => {
      await createRma(w, { subject, deviceUuid: device.uuid, description: problem, zendeskTicket: ticketId });
    },
  );
}

/** A ticket as openTickets(V2) list it (the catalogue's TicketInformation). */
const ticketInformation = (row: store.SupportTicketRow) => {
  const r = fromJson<SupportTicketRecord>(row.record)!;
  return { id: row.id, subject: r.subject, status: r.status, createdAt: new Date(row.created_at_ms).toISOString() };
};

export const OPEN_TICKETS_PAGE_SIZE = 25;

/** help/openTickets: the organization's open tickets and RMAs, newest first, a page (from 1) at a time. */
export async function openTickets(deps: Pick<Deps, 'store'>, ctx: CallerContext, pageNumber: number) {
  const q = { orgUuid: ctx.orgUuid, kinds: LISTED_KINDS, status: OPEN };
  const total = await store.countTickets(deps.store.db, q);
  const rows = await store.listTickets(deps.store.db, { ...q, offset: (pageNumber - 1) * OPEN_TICKETS_PAGE_SIZE, limit: OPEN_TICKETS_PAGE_SIZE });
  return { tickets: rows.map(ticketInformation), currentPage: pageNumber, totalTickets: total, hasNexPage: pageNumber * OPEN_TICKETS_PAGE_SIZE < total };
}

/** The most tickets one openTicketsV2 window answers. */
export const OPEN_TICKETS_WINDOW_MAX = 1000;

/**
 * help/openTicketsV2: the organization's open tickets and RMAs opened in [startTimeMs, endTimeMs) (every one when
 * no bound is given), newest first, and among them the caller's own (userTickets).
 */
export async function openTicketsV2(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { startTimeMs?: number | null; endTimeMs?: number | null }) {
  if (input.startTimeMs != null && input.endTimeMs != null && input.startTimeMs >= input.endTimeMs)
    throw fail('INVALID_VALUE', 'startTimeMs: must be before endTimeMs');
  const rows = await store.listTickets(deps.store.db, {
    orgUuid: ctx.orgUuid,
    kinds: LISTED_KINDS,
    status: OPEN,
    fromMs: input.startTimeMs ?? undefined,
    toMs: input.endTimeMs ?? undefined,
    offset: 0,
    limit: OPEN_TICKETS_WINDOW_MAX,
  });
  return { tickets: rows.map(ticketInformation), userTickets: rows.filter((r) => ctx.userUuid && r.user_uuid === ctx.userUuid).map(ticketInformation) };
}
