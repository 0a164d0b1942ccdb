import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { recordCredentialChange } from './credential-history.service.js';
import { lookupKey, type CredentialType } from './credential-formats.js';
import { checkedWindow, findCredentials } from './service.js';
import * as store from './store.js';
import type { CredentialsTable } from '../tables.js';
import { toCredentialRecord, type CredentialQueryFilter, type CredentialRecord } from './model.js';

type CredentialDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The live credential of the organization that holds a hex value (a PIN: its digits), or NOT_FOUND. */
async function claimingHex(w: WriteScope, hex: string): Promise<CredentialsTable> {
  const given = hex.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(given)) throw fail('INVALID_VALUE', 'credentialHexValue: must be hexadecimal digits (0-9, a-f)');
  const keys = /^[0-9]+$/.test(given) ? [lookupKey(null, given), lookupKey('PIN_CODE', given)] : [lookupKey(null, given)];
  for (const key of keys) {
    const row = await store.findClaimingCredential(w.tx, w.actor.orgUuid, key);
    if (row) return row;
  }
  throw fail('NOT_FOUND', `Credential with hex value ${given}`);
}

async function credentialOf(w: WriteScope, uuid: string): Promise<CredentialsTable> {
  const row = await store.findCredential(w.tx, w.actor.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Credential');
  return row;
}

/** Changes a credential in the caller's write, keeps the change in its history and answers it. */
async function changeCredential(w: WriteScope, row: CredentialsTable, patch: Omit<store.CredentialPatch, 'updated_at_ms'>): Promise<CredentialRecord> {
  await store.updateCredential(w.tx, w.actor.orgUuid, row.uuid, { ...patch, updated_at_ms: w.nowMs });
  const record = toCredentialRecord((await store.findCredential(w.tx, w.actor.orgUuid, row.uuid))!);
  await recordCredentialChange(w, 'UPDATE', record);
  return record;
}

/**
 * `assignAccessControlCredential`: gives the unassigned credential holding the hex value to a user, who may
 * then badge in with it (ACTIVE). Assigning it to the user who holds it already changes nothing; a
 * credential held by another user is refused.
 */
export async function assignCredential(
  deps: CredentialDeps,
  ctx: CallerContext,
  input: { credentialHexValue: string; userUuid: string },
): Promise<CredentialRecord> {
  return write(deps, ctx, async (w) => {
    const row = await claimingHex(w, input.credentialHexValue);
    if (row.user_uuid === input.userUuid) return toCredentialRecord(row);
    if (row.workflow_status !== 'UNASSIGNED') throw fail('CONFLICT', `The credential with this value is assigned to another user (${row.workflow_status})`);
    return changeCredential(w, row, { user_uuid: input.userUuid, workflow_status: 'ACTIVE' });
  });
}

/** `updateAccessControlCredentialNote`: an empty note clears it. */
export async function updateCredentialNote(
  deps: CredentialDeps,
  ctx: CallerContext,
  input: { credentialUuid: string; note: string },
): Promise<CredentialRecord> {
  return write(deps, ctx, async (w) => changeCredential(w, await credentialOf(w, input.credentialUuid), { note: input.note.trim() || null }));
}

/** A credential of one of the types, or a refusal naming the type it is. */
function ofType(row: CredentialsTable, types: readonly CredentialType[], what: string): CredentialsTable {
  if (!types.includes(row.type as CredentialType)) throw fail('INVALID_VALUE', `credentialUuid: the credential is a ${row.type} credential, not a ${what} one`);
  return row;
}

/**
 * The type-specific updates: replaces a credential's validity window (a bound left out is removed). The
 * credential must be of one of the operation's types.
 */
export async function updateCredentialWindow(
  deps: CredentialDeps,
  ctx: CallerContext,
  types: readonly CredentialType[],
  what: string,
  input: { credentialUuid: string; startDateEpochSecInclusive?: number | null; endDateEpochSecExclusive?: number | null },
): Promise<CredentialRecord> {
  const { start, end } = checkedWindow(input);
  return write(deps, ctx, async (w) => {
    const row = ofType(await credentialOf(w, input.credentialUuid), types, what);
    return changeCredential(w, row, { start_epoch_sec: start, end_epoch_sec: end });
  });
}

/** The type-specific detail reads: the credential, which must be of the type. */
export async function credentialDetails(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  types: readonly CredentialType[],
  what: string,
  credentialUuid: string,
): Promise<CredentialRecord> {
  const row = await store.findCredential(deps.store.db, ctx.orgUuid, credentialUuid);
  if (!row) throw fail('NOT_FOUND', 'Credential');
  return toCredentialRecord(ofType(row, types, what));
}

/** `deleteUnassignedAccessControlCredential`: deletes the unassigned credential holding the hex value. */
export async function deleteUnassignedCredential(deps: CredentialDeps, ctx: CallerContext, input: { credentialHexValue: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await claimingHex(w, input.credentialHexValue);
    if (row.workflow_status !== 'UNASSIGNED')
      throw fail('NOT_ALLOWED', `The credential with this value is ${row.workflow_status}: only an unassigned one is deleted here`);
    await store.deleteCredential(w.tx, ctx.orgUuid, row.uuid);
    await recordCredentialChange(w, 'DELETE', toCredentialRecord(row));
  });
}

/** `findAccessControlCredentialByUsers`: each user's credentials (every user must be the organization's). */
export async function findCredentialsByUsers(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { userUuids: string[]; filter?: CredentialQueryFilter | null },
): Promise<Record<string, CredentialRecord[]>> {
  const users = [...new Set(input.userUuids)];
  const byUser: Record<string, CredentialRecord[]> = Object.fromEntries(users.map((u) => [u, []]));
  for (const credential of await findCredentials(deps, ctx, { userUuids: users, filter: input.filter })) byUser[credential.userUuid!].push(credential);
  return byUser;
}

/** What every type-specific creator takes besides its value fields. */
export interface WindowAndHolder {
  startDateEpochSecInclusive?: number | null;
  endDateEpochSecExclusive?: number | null;
  userUuid?: string | null;
}
