import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { decodePageKey, encodePageKey } from '../../store/page-key.js';
import { geoLocate } from '../../net/geoip.js';
import { actionMatches, catalogueAction, type ActionMatch } from './actions.js';
import { principalNames } from '../orgs/service.js';
import * as store from './store.js';

export const AUDIT_PAGE = { default: 100, max: 1000 };

/**
 * An audit event as the feed answers it (the reference's audit event, with what the trail keeps). Every event
 * has every key, in this order, and no string is null: the platform's audit example turns the feed into CSV rows
 * by the first event's keys and joins sourceCity, sourceState and sourceCountry.
 */
export interface AuditEventRecord {
  uuid: string;
  orgUuid: string;
  timestamp: string;
  /** This and `operation` are the CSV export's columns: the JSON answer leaves both out (the catalogue's event has neither). */
  timestampMs: number;
  /** The catalogue's name of the action (actions.ts), UNKNOWN where it has none. */
  action: string;
  /** `<operation>: <ACTION> <ENTITY> <uuid>`: what the trail keeps, whatever the catalogue calls it. */
  displayText: string;
  principalType: 'USER' | 'PARTNER' | 'API_TOKEN';
  principalUuid: string;
  principalName: string;
  targetUuid: string;
  targetName: string;
  clientType: 'API_TOKEN' | 'PARTNER_API_TOKEN' | 'DEVICE';
  operation: string;
  failure: boolean;
  /** The request's client address and user agent ('' for writes made off REST: the CLI, the simulator, jobs). */
  sourceIp: string;
  userAgent: string;
  /** Where the address is (src/net/geoip.ts): '' for loopback, private and unknown addresses. */
  sourceCity: string;
  sourceState: string;
  sourceCountry: string;
}

/** The row id as a RUUID-shaped uuid: 16 bytes, the id big-endian in the last eight. */
function eventUuid(id: number): string {
  const bytes = Buffer.alloc(16);
  bytes.write('audit', 0, 'latin1');
  // Two 32-bit halves: a BigInt per row cost more than the rest of the uuid.
  bytes.writeUInt32BE(Math.floor(id / 2 ** 32), 8);
  bytes.writeUInt32BE(id % 2 ** 32, 12);
  return bytes.toString('base64url');
}

function toRecord(row: store.AuditRow, names: ReadonlyMap<string, string>): AuditEventRecord {
  const principalType = row.partner_org_uuid ? 'PARTNER' : row.user_uuid ? 'USER' : 'API_TOKEN';
  const place = geoLocate(row.source_ip);
  return {
    uuid: eventUuid(row.id),
    orgUuid: row.org_uuid,
    timestamp: new Date(row.at_ms).toISOString(),
    timestampMs: row.at_ms,
    action: catalogueAction(row.entity, row.action),
    displayText: `${row.operation}: ${row.action} ${row.entity} ${row.entity_uuid}`,
    principalType,
    principalUuid: row.partner_org_uuid ?? row.user_uuid ?? '',
    principalName: names.get(row.partner_org_uuid ?? row.user_uuid ?? row.api_key_id ?? '') ?? '',
    targetUuid: row.entity_uuid,
    targetName: row.entity,
    // A write off REST is the simulator's (acting as a device) or a job's: the catalogue's clients have no other name.
    clientType: row.partner_org_uuid ? 'PARTNER_API_TOKEN' : row.api_key_id ? 'API_TOKEN' : 'DEVICE',
    operation: row.operation,
    failure: false,
    sourceIp: row.source_ip ?? '',
    userAgent: row.user_agent ?? '',
    sourceCity: place.city,
    sourceState: place.state,
    sourceCountry: place.country,
  };
}

/** What a filter's action names match: the catalogue's names, or the trail's `<ENTITY>_<ACTION>`. */
function matchesOf(names: readonly string[]): ActionMatch[] {
  return names.flatMap((name) => {
    const matches = actionMatches(name);
    if (!matches) throw fail('INVALID_VALUE', `includeActions/excludeActions: "${name}" is not an audit action nor <ENTITY>_<ACTION> (e.g. LOCATION_CREATE)`);
    return matches;
  });
}

export interface AuditFeedInput {
  includeActions?: string[] | null;
  excludeActions?: string[] | null;
  timestampMsAfter?: number | null;
  timestampMsBefore?: number | null;
  maxPageSize?: number | null;
  lastEvaluatedKey?: string | null;
  principalUuid?: string;
  targetUuid?: string;
}

/** A page of the organization's audit trail, newest first; `lastEvaluatedKey` is present while older events follow. */
export async function auditFeed(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: AuditFeedInput,
): Promise<{ auditEvents: AuditEventRecord[]; lastEvaluatedKey: string | null }> {
  const limit = Math.min(input.maxPageSize ?? AUDIT_PAGE.default, AUDIT_PAGE.max);
  const cursor = input.lastEvaluatedKey ? decodePageKey(input.lastEvaluatedKey, ['number'] as const)[0] : null;
  const rows = await store.auditPage(deps.store.db, {
    orgUuid: ctx.orgUuid,
    beforeId: cursor,
    principalUuid: input.principalUuid,
    targetUuid: input.targetUuid,
    include: input.includeActions ? matchesOf(input.includeActions) : undefined,
    exclude: input.excludeActions ? matchesOf(input.excludeActions) : undefined,
    afterMs: input.timestampMsAfter ?? undefined,
    beforeMs: input.timestampMsBefore ?? undefined,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const ids = (pick: (row: store.AuditRow) => string | null) => [...new Set(page.flatMap((row) => pick(row) ?? []))];
  const names = await principalNames(deps, ctx.orgUuid, {
    users: ids((row) => (row.partner_org_uuid ? null : row.user_uuid)),
    partnerOrgs: ids((row) => row.partner_org_uuid),
    apiKeys: ids((row) => (row.partner_org_uuid || row.user_uuid ? null : row.api_key_id)),
  });
  return { auditEvents: page.map((row) => toRecord(row, names)), lastEvaluatedKey: rows.length > limit ? encodePageKey([page.at(-1)!.id]) : null };
}
