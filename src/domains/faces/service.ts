import { newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../store/write.js';
import * as store from './store.js';
import type { PeopleTable } from './tables.js';

export interface PersonRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  createdAtMillis: number;
}

export function toPersonRecord(row: PeopleTable): PersonRecord {
  return { uuid: row.uuid, orgUuid: row.org_uuid, name: row.name, createdAtMillis: row.created_at_ms };
}

export async function createPerson(w: WriteScope, input: { name: string }): Promise<PersonRecord> {
  const row: PeopleTable = { uuid: newRuuid(), org_uuid: w.actor.orgUuid, name: input.name, created_at_ms: w.nowMs };
  await store.insertPerson(w.tx, row);
  const record = toPersonRecord(row);
  w.change({ entity: 'PERSON', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

/** A person of the organization; null for a missing one or another organization's. */
export async function findPerson(source: ReadSource, orgUuid: string, uuid: string): Promise<PersonRecord | null> {
  const row = await store.findPerson(dbOf(source), orgUuid, uuid);
  return row ? toPersonRecord(row) : null;
}
