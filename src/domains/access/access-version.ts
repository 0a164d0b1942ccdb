import { newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import * as store from './grants/store.js';

/**
 * The organization's access version: a random token that every write changing who may open what replaces,
 * in its own transaction (groups, members, grants, revocations, door labels). The badge decision keeps a view
 * of each organization built at a version and uses it only while the store still holds that version, so
 * that a change made through any instance is seen by the next badge-in on every instance.
 */
export async function touchAccessVersion(w: WriteScope): Promise<void> {
  await store.writeAccessVersion(w.tx, w.actor.orgUuid, newRuuid());
}

/** The organization's current access version ('' before its first access change). */
export async function readAccessVersion(source: ReadSource, orgUuid: string): Promise<string> {
  return store.readAccessVersion(dbOf(source), orgUuid);
}
