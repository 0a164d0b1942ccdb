import type { ChangeEntities, EntityName } from '../bus/entities.js';
import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import { newRuuid } from '../ids.js';
import { dbOf, type ReadSource } from '../store/reader.js';
import { write, type Actor, type WriteScope } from '../bus/write.js';
import * as store from './store.js';
import type { RecordFilter } from './store.js';

/**
 * One kit for the many org-scoped configuration records of the platform (camera policies, lockdown plans,
 * metadata templates, ...), so that each family is its schema, its checks and its routes, and never another
 * copy of find / create / update / delete. A kind is named by its stream entity: the record type is the one
 * `src/bus/entities.ts` gives that entity, every write is one transaction with its change event, and another
 * organization's uuid answers exactly as an unknown one.
 *
 * Records whose fields a query must search (badge decisions, reports) belong in tables of their own.
 */

/** Entities whose record carries its own uuid: the kinds this kit can keep. */
export type RecordEntity = { [E in EntityName]: ChangeEntities[E] extends { uuid: string } ? E : never }[EntityName];
export type RecordOf<E extends RecordEntity> = ChangeEntities[E];
/** A record as a create takes it: everything but its uuid, which the kit assigns. */
export type NewRecord<E extends RecordEntity> = Omit<RecordOf<E>, 'uuid'> & { uuid?: string };

export interface RecordKind<E extends RecordEntity> {
  entity: E;
  /** How errors name a record of this kind: "Lockdown plan X not found". */
  label: string;
  /** The record's name, when it has one: lists are ordered by it and `list({name})` finds by it. */
  nameOf?: (record: RecordOf<E>) => string | null | undefined;
  /** The record's owner (a location, a device, a user), when finders filter on one. */
  ownerOf?: (record: RecordOf<E>) => string | null | undefined;
  /**
   * Checks a record about to be stored, inside the write (ids it refers to belong to the organization,
   * values in range), and answers it as it will be kept. Throws `fail(...)` to refuse it.
   */
  check?: (w: WriteScope, record: RecordOf<E>, previous: RecordOf<E> | null) => Promise<RecordOf<E>> | RecordOf<E>;
  /** Refuses a delete (`throw fail('NOT_ALLOWED', ...)`) while the record is in use. */
  beforeDelete?: (w: WriteScope, record: RecordOf<E>) => Promise<void>;
  /** Stamps the record with its times (e.g. createdAtMillis / updatedAtMillis), when the kind carries them. */
  stamp?: (record: RecordOf<E>, times: { createdAtMs: number; updatedAtMs: number }) => RecordOf<E>;
}

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface OrgRecords<E extends RecordEntity> {
  readonly kind: RecordKind<E>;
  /** The organization's records of this kind, by name then uuid, narrowed by the filter. */
  list(source: ReadSource, orgUuid: string, filter?: RecordFilter): Promise<Array<RecordOf<E>>>;
  /** One record of the organization, or null (also for another organization's uuid). */
  find(source: ReadSource, orgUuid: string, uuid: string): Promise<RecordOf<E> | null>;
  /** The records of one owner (a point read). */
  listByOwner(source: ReadSource, orgUuid: string, ownerUuid: string): Promise<Array<RecordOf<E>>>;
  /** One record of the organization, or NOT_FOUND. */
  get(source: ReadSource, orgUuid: string, uuid: string): Promise<RecordOf<E>>;
  /** Creates a record in its own transaction. */
  create(deps: WriteDeps, actor: Actor, record: NewRecord<E>): Promise<RecordOf<E>>;
  /** Changes a record: `patch` merges over it (a field given as undefined keeps its value). */
  update(deps: WriteDeps, actor: Actor, uuid: string, patch: Partial<RecordOf<E>>): Promise<RecordOf<E>>;
  /** Deletes a record and answers it as it was. */
  remove(deps: WriteDeps, actor: Actor, uuid: string): Promise<RecordOf<E>>;
  /** The same three writes inside a write that does more (one transaction). */
  insert(w: WriteScope, record: NewRecord<E>): Promise<RecordOf<E>>;
  put(w: WriteScope, uuid: string, patch: Partial<RecordOf<E>>): Promise<RecordOf<E>>;
  delete(w: WriteScope, uuid: string): Promise<RecordOf<E>>;
}

/** Drops the fields given as undefined, so that a patch never clears a field by leaving it out. */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function orgRecords<E extends RecordEntity>(kind: RecordKind<E>): OrgRecords<E> {
  const decode = (data: string) => JSON.parse(data) as RecordOf<E>;

  async function find(source: ReadSource, orgUuid: string, uuid: string): Promise<RecordOf<E> | null> {
    const row = await store.findRecord(dbOf(source), orgUuid, kind.entity, uuid);
    return row ? decode(row.data) : null;
  }

  async function get(source: ReadSource, orgUuid: string, uuid: string): Promise<RecordOf<E>> {
    const record = await find(source, orgUuid, uuid);
    if (!record) throw fail('NOT_FOUND', `${kind.label} ${uuid}`);
    return record;
  }

  function columns(record: RecordOf<E>, nowMs: number) {
    return { name: kind.nameOf?.(record) ?? null, owner_uuid: kind.ownerOf?.(record) ?? null, data: JSON.stringify(record), updated_at_ms: nowMs };
  }

  /** Announces a change of a record; the cast is where TypeScript cannot tie the generic entity to its record. */
  function announce(w: WriteScope, type: 'CREATE' | 'UPDATE' | 'DELETE', record: RecordOf<E>): void {
    w.change({ entity: kind.entity, entityUuid: record.uuid, type, update: record } as Parameters<WriteScope['change']>[0]);
  }

  async function insert(w: WriteScope, input: NewRecord<E>): Promise<RecordOf<E>> {
    const uuid = input.uuid ?? newRuuid();
    if (input.uuid && (await dbOf(w).selectFrom('org_records').select('uuid').where('uuid', '=', uuid).executeTakeFirst()))
      throw fail('CONFLICT', `${kind.label} ${uuid} already exists`);
    let record = { ...input, uuid } as RecordOf<E>;
    if (kind.check) record = await kind.check(w, record, null);
    if (kind.stamp) record = kind.stamp(record, { createdAtMs: w.nowMs, updatedAtMs: w.nowMs });
    await store.insertRecord(w.tx, { uuid, org_uuid: w.actor.orgUuid, kind: kind.entity, created_at_ms: w.nowMs, ...columns(record, w.nowMs) });
    announce(w, 'CREATE', record);
    return record;
  }

  async function put(w: WriteScope, uuid: string, patch: Partial<RecordOf<E>>): Promise<RecordOf<E>> {
    const [row] = await store.selectRecords(w.tx, w.actor.orgUuid, kind.entity, { uuids: [uuid] });
    if (!row) throw fail('NOT_FOUND', `${kind.label} ${uuid}`);
    const previous = decode(row.data);
    let record = { ...previous, ...definedFields(patch), uuid } as RecordOf<E>;
    if (kind.check) record = await kind.check(w, record, previous);
    if (kind.stamp) record = kind.stamp(record, { createdAtMs: Number(row.created_at_ms), updatedAtMs: w.nowMs });
    await store.updateRecord(w.tx, w.actor.orgUuid, kind.entity, uuid, columns(record, w.nowMs));
    announce(w, 'UPDATE', record);
    return record;
  }

  async function remove(w: WriteScope, uuid: string): Promise<RecordOf<E>> {
    const record = await get(w, w.actor.orgUuid, uuid);
    await kind.beforeDelete?.(w, record);
    await store.deleteRecords(w.tx, w.actor.orgUuid, kind.entity, [uuid]);
    announce(w, 'DELETE', record);
    return record;
  }

  return {
    kind,
    listByOwner: async (source, orgUuid, ownerUuid) =>
      (await store.findRecordsByOwner(dbOf(source), orgUuid, kind.entity, ownerUuid)).map((row) => decode(row.data)),
    list: async (source, orgUuid, filter) => (await store.selectRecords(dbOf(source), orgUuid, kind.entity, filter)).map((row) => decode(row.data)),
    find,
    get,
    create: (deps, actor, record) => write(deps, actor, (w) => insert(w, record)),
    update: (deps, actor, uuid, patch) => write(deps, actor, (w) => put(w, uuid, patch)),
    remove: (deps, actor, uuid) => write(deps, actor, (w) => remove(w, uuid)),
    insert,
    put,
    delete: remove,
  };
}
