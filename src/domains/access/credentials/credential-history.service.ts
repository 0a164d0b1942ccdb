import type { ChangeType } from '../../../store/change-event.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { WriteScope } from '../../../bus/write.js';
import { canonicalCredentialType, lookupKey } from './credential-formats.js';
import * as store from './credential-history.store.js';
import { CREDENTIAL_ENTITY, credentialAnswer, type CredentialQueryFilter, type CredentialRecord } from './model.js';

/** The most entries a history answer holds, newest first. */
export const HISTORY_LIMIT = 1000;

/**
 * Announces a change of a credential's lifecycle (created, assigned, noted, re-dated, suspended, revoked,
 * deleted) and keeps the credential as it now stands in its history. Badge-ins only move `lastUsed*`: they
 * are announced, not kept (the door events hold them).
 */
export async function recordCredentialChange(w: WriteScope, type: ChangeType, record: CredentialRecord): Promise<void> {
  w.change({ entity: CREDENTIAL_ENTITY, entityUuid: record.uuid, type, update: credentialAnswer(record) });
  await store.insertHistory(w.tx, [
    {
      org_uuid: record.orgUuid,
      credential_uuid: record.uuid,
      user_uuid: record.userUuid,
      lookup_key: lookupKey(record.type, record.lowercaseHexValue),
      type: record.type,
      value: record.value,
      action: type,
      recorded_at_ms: w.nowMs,
      payload: JSON.stringify(record),
    },
  ]);
}

/** Whether a credential passes a query filter (empty lists mean "any"), as the credential lists apply it. */
function passes(c: CredentialRecord, f: CredentialQueryFilter): boolean {
  const within = <T>(list: T[] | null | undefined, value: T) => !list?.length || list.includes(value);
  const types = f.credTypeFilter?.map(canonicalCredentialType);
  return (
    within(types, c.type) &&
    within(f.workflowStatusFilter, c.workflowStatus) &&
    (!f.lastUsedAccessControlledDoorUuidFilter?.length || f.lastUsedAccessControlledDoorUuidFilter.includes(c.lastUsedAccessControlledDoorUuid ?? '')) &&
    (!f.lastUsedLocationUuidFilter?.length || f.lastUsedLocationUuidFilter.includes(c.lastUsedLocationUuid ?? '')) &&
    (f.lastUsedAfterFilter == null || (c.lastUsedAtMillis !== null && c.lastUsedAtMillis > f.lastUsedAfterFilter)) &&
    (f.lastUsedBeforeFilter == null || (c.lastUsedAtMillis !== null && c.lastUsedAtMillis < f.lastUsedBeforeFilter))
  );
}

/** What a history is asked by: the hex a reader reports, a type and decoded value, or a user. */
export type HistoryQuery = { credentialHexValue: string } | { credentialType: string; credentialValue: string } | { userUuid: string };

/** The lookup keys a presented value may be kept under: its bits, and (all digits) a PIN's digits. */
function keysOfHex(hex: string): string[] {
  const given = hex.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(given)) throw fail('INVALID_VALUE', 'credentialHexValue: must be hexadecimal digits (0-9, a-f)');
  return /^[0-9]+$/.test(given) ? [lookupKey(null, given), lookupKey('PIN_CODE', given)] : [lookupKey(null, given)];
}

/**
 * Every state the organization's credentials matching the query have been in, newest first (at most
 * HISTORY_LIMIT), each as the credential stood after the change, narrowed by the filter.
 */
export async function credentialHistory(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  query: HistoryQuery,
  filter: CredentialQueryFilter | null | undefined,
): Promise<CredentialRecord[]> {
  let key: store.HistoryKey;
  if ('credentialHexValue' in query) key = { lookupKeys: keysOfHex(query.credentialHexValue) };
  else if ('userUuid' in query) {
    key = { userUuid: query.userUuid };
  } else key = { type: canonicalCredentialType(query.credentialType), value: query.credentialValue.trim() };
  const entries = (await store.listHistory(deps.store.db, ctx.orgUuid, key, HISTORY_LIMIT)).map((p) => JSON.parse(p) as CredentialRecord);
  return entries.filter((c) => passes(c, filter ?? {}));
}
