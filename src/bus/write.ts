import type { Bus } from './bus.js';
import type { ChangeEntities, EntityName } from './entities.js';
import type { ChangeEvent, ChangeType } from '../store/change-event.js';
import type { Clock } from '../clock.js';
import { appendToChangeLog, insertAuditRows } from '../store/change-log.js';
import type { Store } from '../store/database.js';
import type { Tx } from '../store/reader.js';

/** Who is writing: the caller of an operation, a CLI command, or the simulator acting as a device. */
export interface Actor {
  orgUuid: string;
  userUuid: string | null;
  apiKeyId: string | null;
  partnerOrgUuid: string | null;
  /** The operation (REST operation id, CLI command, simulator event) that makes the write. */
  operation: string;
  /** The address and user agent of the request that makes the write, for the audit trail (absent off REST). */
  sourceIp?: string | null;
  userAgent?: string | null;
  /**
   * The rules whose actions make this write, the first rule's first (a rule's action, or what it caused in turn):
   * its changes carry them on the bus, and none of those rules fires again on them (src/domains/rules/general/runner.ts).
   */
  causedByRules?: readonly string[];
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
  /**
   * Runs `task` once the transaction has committed (removing the files of records the write deleted): a rolled-back
   * write keeps its files, and a task that fails does not turn the committed write into an error.
   */
  afterCommit(task: () => Promise<void>): void;
}

export interface WriteDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
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
  const committed: Array<() => Promise<void>> = [];
  const result = await deps.store.transaction(async (tx) => {
    const value = await fn({
      tx,
      nowMs,
      actor,
      change: (c) => changes.push(c),
      audit: (a) => audits.push(a),
      afterCommit: (task) => committed.push(task),
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
      source_ip: actor.sourceIp ?? null,
      user_agent: actor.userAgent ?? null,
    }));
    if (changes.length === 0) {
      await insertAuditRows(tx, auditRows);
      return value;
    }
    const logged = changes.map((c) => ({
      orgUuid: c.orgUuid ?? actor.orgUuid,
      entity: c.entity,
      entityUuid: c.entityUuid,
      type: c.type,
      deviceUuid: c.deviceUuid ?? null,
      timestampMs: c.timestampMs ?? nowMs,
      update: c.update,
    }));
    // The transaction's last statement: on PostgreSQL its COMMIT goes with it.
    const events = await appendToChangeLog(tx, deps.store.dialect, logged, auditRows, nowMs, { commits: true });
    const causedByRules = actor.causedByRules;
    announced.push(...(causedByRules?.length ? events.map((e) => ({ ...e, causedByRules })) : events));
    return value;
  });
  for (const event of announced) {
    // The change is durable in the change log; a bus hiccup must not turn a committed write into an error.
    await deps.bus.publish('change', event).catch(() => {});
  }
  for (const task of committed) await task().catch(() => {});
  return result;
}
