import { sql, type Transaction } from 'kysely';
import type { Bus } from '../bus/bus.js';
import type { ChangeEntities, EntityName } from '../bus/entities.js';
import type { ChangeEvent, ChangeType } from '../bus/events.js';
import type { Clock } from '../clock.js';
import { insertInChunks, insertReturningIds } from './chunks.js';
import type { Store } from './database.js';
import type { DB } from './schema.js';

export type Tx = Transaction<DB>;

/** Who is writing: the caller of an operation, a CLI command, or the simulator acting as a device. */
export interface Actor {
  orgUuid: string;
  userUuid: string | null;
  apiKeyId: string | null;
  partnerOrgUuid: string | null;
  /** The operation (REST operation id, CLI command, simulator event) that makes the write. */
  operation: string;
}

/** One change of one entity: its name and its record (`update`) are tied by the map in src/bus/entities.ts. */
export type ChangeInput = {
  [E in EntityName]: {
    entity: E;
    entityUuid: string;
    type: ChangeType;
    deviceUuid?: string | null;
    /** The record as the REST API returns it. */
    update: ChangeEntities[E];
    /** Defaults to the actor's organization. */
    orgUuid?: string;
    /** Defaults to now. */
    timestampMs?: number;
  };
}[EntityName];

export interface AuditInput {
  entity: string;
  entityUuid: string;
  action: string;
  orgUuid?: string;
}

/** What a write sees: its transaction, the time it runs at, and the two records every write leaves. */
export interface WriteScope {
  tx: Tx;
  nowMs: number;
  actor: Actor;
  /** Audits the change and appends it to the durable change log; it is announced on the bus after commit. */
  change(change: ChangeInput): void;
  /** Audits a write that the stream does not carry (keys, grants). */
  audit(entry: AuditInput): void;
}

export interface WriteDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
}

/**
 * Appends changes to the durable change log, each with the next position of its organization. The position
 * counter is one row per organization (`change_positions`), bumped once per organization and write, last in
 * the transaction: on PostgreSQL its row lock makes the writes of one organization commit in position order
 * (and a rolled-back write gives its positions back), while writes of other organizations never wait on it.
 * Organizations are taken in sorted order, so two writes touching the same ones cannot deadlock.
 */
async function logChanges(tx: Tx, changes: ChangeInput[], actor: Actor, nowMs: number): Promise<ChangeEvent[]> {
  const counts = new Map<string, number>();
  for (const c of changes) {
    const org = c.orgUuid ?? actor.orgUuid;
    counts.set(org, (counts.get(org) ?? 0) + 1);
  }
  const next = new Map<string, number>();
  for (const org of [...counts.keys()].sort()) {
    const n = counts.get(org)!;
    const row = await tx
      .insertInto('change_positions')
      .values({ org_uuid: org, last_position: n })
      .onConflict((oc) => oc.column('org_uuid').doUpdateSet({ last_position: sql<number>`change_positions.last_position + ${n}` }))
      .returning('last_position')
      .executeTakeFirstOrThrow();
    next.set(org, Number(row.last_position) - n + 1);
  }
  const events = changes.map((c) => {
    const orgUuid = c.orgUuid ?? actor.orgUuid;
    const position = next.get(orgUuid)!;
    next.set(orgUuid, position + 1);
    return {
      position,
      orgUuid,
      entity: c.entity,
      entityUuid: c.entityUuid,
      type: c.type,
      deviceUuid: c.deviceUuid ?? null,
      timestampMs: c.timestampMs ?? nowMs,
      update: c.update,
    };
  });
  const ids = await insertReturningIds(
    tx,
    'change_events',
    events.map((event) => ({
      org_uuid: event.orgUuid,
      position: event.position,
      logged_at_ms: nowMs,
      entity: event.entity,
      entity_uuid: event.entityUuid,
      type: event.type,
      device_uuid: event.deviceUuid,
      timestamp_ms: event.timestampMs,
      payload: JSON.stringify(event.update ?? null),
    })),
  );
  return events.map((event, i) => ({ id: ids[i]!, ...event }));
}

/**
 * Runs `fn` in one transaction together with its audit rows and change-log rows, then announces the
 * changes on the bus once the transaction has committed. A failure anywhere rolls back all of it.
 */
export async function write<T>(deps: WriteDeps, actor: Actor, fn: (scope: WriteScope) => Promise<T>): Promise<T> {
  const nowMs = deps.clock.now();
  const changes: ChangeInput[] = [];
  const audits: AuditInput[] = [];
  const announced: ChangeEvent[] = [];
  const result = await deps.store.transaction(async (tx) => {
    const value = await fn({
      tx,
      nowMs,
      actor,
      change: (c) => changes.push(c),
      audit: (a) => audits.push(a),
    });
    const auditRows = [...changes.map((c) => ({ entity: c.entity, entityUuid: c.entityUuid, action: c.type, orgUuid: c.orgUuid })), ...audits].map((a) => ({
      at_ms: nowMs,
      org_uuid: a.orgUuid ?? actor.orgUuid,
      user_uuid: actor.userUuid,
      api_key_id: actor.apiKeyId,
      partner_org_uuid: actor.partnerOrgUuid,
      operation: actor.operation,
      entity: a.entity,
      entity_uuid: a.entityUuid,
      action: a.action,
    }));
    // A big write (a site file) leaves thousands of rows: they go in chunks under the bind-parameter limit.
    await insertInChunks(tx, 'audit_log', auditRows);
    if (changes.length > 0) announced.push(...(await logChanges(tx, changes, actor, nowMs)));
    return value;
  });
  for (const event of announced) {
    // The change is durable in the change log; a bus hiccup must not turn a committed write into an error.
    await deps.bus.publish('change', event).catch(() => {});
  }
  return result;
}
