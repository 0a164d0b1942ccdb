import type { NewRecord, OrgRecords, RecordEntity, RecordOf } from '../../records/org-records.js';
import type { ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';

/**
 * Records of which an owner (the organization itself, a user, a client organization) has at most one: an
 * organization's settings, a user's settings, a partner's settings for a client. Read by owner; a write
 * changes the owner's record, creating it from `initial` the first time. The kind's `ownerOf` must answer
 * the owner.
 */
export interface OwnedRecords<E extends RecordEntity> {
  /** The owner's record, or null while it has none. */
  find(source: ReadSource, orgUuid: string, ownerUuid: string): Promise<RecordOf<E> | null>;
  /** The records of these owners (one query), by owner. */
  findMany(source: ReadSource, orgUuid: string, ownerUuids: readonly string[]): Promise<Map<string, RecordOf<E>>>;
  /** Merges `patch` over the owner's record (or over `initial()` when it has none), in the write. */
  upsert(w: WriteScope, ownerUuid: string, initial: () => NewRecord<E>, patch: Partial<RecordOf<E>>): Promise<RecordOf<E>>;
  /** Deletes the owner's record, when it has one. */
  remove(w: WriteScope, ownerUuid: string): Promise<RecordOf<E> | null>;
}

export function ownedRecords<E extends RecordEntity>(records: OrgRecords<E>): OwnedRecords<E> {
  const ownerOf = records.kind.ownerOf!;
  const findMany = async (source: ReadSource, orgUuid: string, ownerUuids: readonly string[]) =>
    new Map((await records.list(source, orgUuid, { ownerUuids })).map((r) => [ownerOf(r)!, r]));
  const find = async (source: ReadSource, orgUuid: string, ownerUuid: string) => (await records.listByOwner(source, orgUuid, ownerUuid))[0] ?? null;
  return {
    find,
    findMany,
    async upsert(w, ownerUuid, initial, patch) {
      const existing = await find(w, w.actor.orgUuid, ownerUuid);
      if (existing) return records.put(w, existing.uuid, patch);
      return records.insert(w, { ...initial(), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as NewRecord<E>);
    },
    async remove(w, ownerUuid) {
      const existing = await find(w, w.actor.orgUuid, ownerUuid);
      return existing ? records.delete(w, existing.uuid) : null;
    },
  };
}
