import { fail } from '../../../errors.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import * as store from './store.js';

/*
 * The lookups of groups that the users service needs. Kept apart from service.ts, which calls the users
 * service, so that the two modules do not import each other.
 */

/** Checks that a group of the organization exists, before a user is put in it. */
export async function checkAssignableGroup(source: ReadSource, orgUuid: string, uuid: string): Promise<void> {
  if (!(await store.findGroup(dbOf(source), orgUuid, uuid))) throw fail('NOT_FOUND', `Permission group ${uuid}`);
}

export async function superAdminGroupUuids(source: ReadSource, orgUuid: string): Promise<string[]> {
  return store.superAdminGroupUuids(dbOf(source), orgUuid);
}
