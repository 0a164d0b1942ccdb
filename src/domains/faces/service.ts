import { firstByName } from '../../store/by-name.js';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { faceStorage } from './face-storage.js';
import { personMatchKey } from './names.js';
import * as store from './store.js';
import { toMatchmakerRecord, toPersonRecord, type PersonRecord } from './records.js';
import type { PeopleTable } from './tables.js';

type PeopleDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface PersonInput {
  name: string;
  email?: string | null;
}

const MAX_NAME = 200;

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'name must not be empty');
  if (trimmed.length > MAX_NAME) throw fail('INVALID_VALUE', `name must be at most ${MAX_NAME} characters`);
  return trimmed;
}

function checkedEmail(email: string | null | undefined): string | null {
  const trimmed = email?.trim();
  if (!trimmed) return null;
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed)) throw fail('INVALID_VALUE', `email "${trimmed.slice(0, 100)}" is not an e-mail address`);
  return trimmed;
}

/** Creates a person of the writer's organization (the site loader and face uploads call it inside their writes). */
export async function createPerson(w: WriteScope, input: PersonInput): Promise<PersonRecord> {
  const row = personRow(w, input);
  await store.insertPerson(w.tx, row);
  return announcePerson(w, row);
}

/** Creates many people in the write, in as few statements as the store's bind-parameter limit allows (site files). */
export async function createPeople(w: WriteScope, inputs: readonly PersonInput[]): Promise<PersonRecord[]> {
  const rows = inputs.map((input) => personRow(w, input));
  await store.insertPeople(w.tx, rows);
  return rows.map((row) => announcePerson(w, row));
}

function announcePerson(w: WriteScope, row: PeopleTable): PersonRecord {
  const record = toPersonRecord(row);
  w.change({ entity: 'PERSON', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

function personRow(w: WriteScope, input: PersonInput): PeopleTable {
  const name = checkedName(input.name);
  return {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name,
    email: checkedEmail(input.email),
    match_key: personMatchKey(name),
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
}

/** A person of the organization; null for a missing one or another organization's. */
export async function findPerson(source: ReadSource, orgUuid: string, uuid: string): Promise<PersonRecord | null> {
  const row = await store.findPerson(dbOf(source), orgUuid, uuid);
  return row ? toPersonRecord(row) : null;
}

/** The person an uploaded file or a recognised face name stands for: case and white space do not count. */
/** The organization's people, name to uuid (a site file seeded again finds its people by name). */
export async function personUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName(await store.listPeople(dbOf(source), orgUuid));
}

export async function findPersonByName(source: ReadSource, orgUuid: string, name: string): Promise<PersonRecord | null> {
  const row = await store.findPersonByMatchKey(dbOf(source), orgUuid, personMatchKey(name));
  return row ? toPersonRecord(row) : null;
}

export async function addPerson(deps: PeopleDeps, ctx: CallerContext, input: PersonInput): Promise<PersonRecord> {
  return write(deps, ctx, (w) => createPerson(w, input));
}

export async function getPerson(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<PersonRecord> {
  const person = await findPerson(deps, ctx.orgUuid, uuid);
  if (!person) throw fail('NOT_FOUND', 'Person');
  return person;
}

export async function listPeople(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<PersonRecord[]> {
  return (await store.listPeople(deps.store.db, ctx.orgUuid)).map(toPersonRecord);
}

/** A selective update: only the fields present change; an e-mail of null or "" clears it. */
export async function updatePerson(
  deps: PeopleDeps,
  ctx: CallerContext,
  input: { uuid: string; name?: string | null; email?: string | null },
): Promise<PersonRecord> {
  return write(deps, ctx, async (w) => {
    const row = await store.findPerson(w.tx, ctx.orgUuid, input.uuid);
    if (!row) throw fail('NOT_FOUND', 'Person');
    const set: Parameters<typeof store.updatePerson>[3] = { updated_at_ms: w.nowMs };
    if (input.name !== undefined) {
      if (input.name === null) throw fail('INVALID_VALUE', 'name must not be empty');
      set.name = checkedName(input.name);
      set.match_key = personMatchKey(set.name);
    }
    if (input.email !== undefined) set.email = checkedEmail(input.email);
    await store.updatePerson(w.tx, ctx.orgUuid, input.uuid, set);
    const record = toPersonRecord({ ...row, ...set });
    w.change({ entity: 'PERSON', entityUuid: row.uuid, type: 'UPDATE', update: record });
    return record;
  });
}

/** Deletes the person with their face matchmakers; the images go from storage once the deletion has committed. */
export async function deletePerson(deps: PeopleDeps & Pick<Deps, 'config'>, ctx: CallerContext, uuid: string): Promise<void> {
  const keys = await write(deps, ctx, async (w) => {
    const row = await store.findPerson(w.tx, ctx.orgUuid, uuid);
    if (!row) throw fail('NOT_FOUND', 'Person');
    const faces = await store.listMatchmakersOfPerson(w.tx, ctx.orgUuid, uuid);
    await store.deletePerson(w.tx, ctx.orgUuid, uuid);
    for (const face of faces) w.change({ entity: 'FACE_MATCHMAKER', entityUuid: face.id, type: 'DELETE', update: toMatchmakerRecord(face) });
    w.change({ entity: 'PERSON', entityUuid: uuid, type: 'DELETE', update: toPersonRecord(row) });
    return faces.map((f) => f.storage_key);
  });
  const storage = faceStorage(deps.config.dataDir);
  await Promise.all(keys.map((key) => storage.remove(key)));
}
