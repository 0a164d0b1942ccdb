import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { KeypadActivationTokensTable } from './tables.js';

type Db = Kysely<DB>;

const tokenRow = (r: KeypadActivationTokensTable): KeypadActivationTokensTable => ({
  ...r,
  created_at_ms: Number(r.created_at_ms),
  expires_at_ms: Number(r.expires_at_ms),
  claimed_at_ms: r.claimed_at_ms === null ? null : Number(r.claimed_at_ms),
});

export async function insertToken(db: Db, row: KeypadActivationTokensTable): Promise<void> {
  await db.insertInto('keypad_activation_tokens').values(row).execute();
}

export async function findToken(db: Db, digest: string): Promise<KeypadActivationTokensTable | undefined> {
  const row = await db.selectFrom('keypad_activation_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  return row && tokenRow(row);
}

/** Claims an unclaimed, unexpired token for an organization's keypad; false when another claim came first. */
export async function claimToken(db: Db, digest: string, claim: { orgUuid: string; keypadUuid: string; nowMs: number }): Promise<boolean> {
  const result = await db
    .updateTable('keypad_activation_tokens')
    .set({ org_uuid: claim.orgUuid, keypad_uuid: claim.keypadUuid, claimed_at_ms: claim.nowMs })
    .where('token_digest', '=', digest)
    .where('claimed_at_ms', 'is', null)
    .where('expires_at_ms', '>', claim.nowMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Forgets the tokens that expired unclaimed before `beforeMs`. */
export async function deleteExpiredTokens(db: Db, beforeMs: number): Promise<void> {
  await db.deleteFrom('keypad_activation_tokens').where('claimed_at_ms', 'is', null).where('expires_at_ms', '<', beforeMs).execute();
}
