import type { RecordCleaner } from '../../../records/references.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { recordCredentialChange } from './credential-history.service.js';
import { canonicalCredentialType, decodeCredential, lookupKey, type CredentialType } from './credential-formats.js';
import { CREDENTIAL_ENTITY, credentialAnswer, toCredentialRecord, type CredentialQueryFilter, type CredentialRecord } from './model.js';
import * as store from './store.js';
import type { DoorRecord } from '../service.js';
import type { CredentialsTable, WorkflowStatus } from '../tables.js';

type CredentialDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface CreateCredentialInput {
  credentialType: string;
  hexValue: string;
  littleEndian?: boolean | null;
  numValueBits?: number | null;
  startDateEpochSecInclusive?: number | null;
  endDateEpochSecExclusive?: number | null;
  userUuid?: string | null;
}

/** A credential's validity window in epoch seconds (either bound may be absent); the start comes first. */
export function checkedWindow(input: { startDateEpochSecInclusive?: number | null; endDateEpochSecExclusive?: number | null }) {
  const start = input.startDateEpochSecInclusive ?? null;
  const end = input.endDateEpochSecExclusive ?? null;
  if (start !== null && end !== null && start >= end) {
    throw fail('INVALID_VALUE', 'startDateEpochSecInclusive must be before endDateEpochSecExclusive');
  }
  return { start, end };
}

/**
 * Creates a credential from a hex value and a type: the value is validated and decoded as its format demands,
 * may not be claimed by another live credential of the organization, and its holder must be a user of the
 * organization. With a holder it starts ACTIVE, without one UNASSIGNED.
 */
export async function createCredential(deps: CredentialDeps, ctx: CallerContext, input: CreateCredentialInput): Promise<CredentialRecord> {
  const type = canonicalCredentialType(input.credentialType);
  const decoded = decodeCredential({ type, hexValue: input.hexValue, littleEndian: input.littleEndian, numValueBits: input.numValueBits });
  const { start, end } = checkedWindow(input);
  return write(deps, ctx, async (w) => {
    const userUuid = input.userUuid ?? null;
    const holder = await store.findClaimingCredential(w.tx, ctx.orgUuid, decoded.lookupKey);
    if (holder) throw fail('CONFLICT', `The organization already has a credential with this value (${holder.type} ${holder.value})`);
    const row: CredentialsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      user_uuid: userUuid,
      type,
      value: decoded.value,
      lowercase_hex_value: decoded.lowercaseHexValue,
      lookup_key: decoded.lookupKey,
      claimed_key: decoded.lookupKey,
      num_bits: decoded.numBits,
      facility_code: decoded.facilityCode,
      company_id: decoded.companyId,
      card_number: decoded.cardNumber,
      note: null,
      workflow_status: userUuid ? 'ACTIVE' : 'UNASSIGNED',
      start_epoch_sec: start,
      end_epoch_sec: end,
      last_used_at_ms: null,
      last_used_door_uuid: null,
      last_used_location_uuid: null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertCredential(w.tx, row);
    const record = toCredentialRecord(row);
    await recordCredentialChange(w, 'CREATE', record);
    return record;
  });
}

/** The organization's credentials (or one of its users'), oldest first, narrowed by the filter. */
export async function findCredentials(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { userUuid?: string; userUuids?: readonly string[]; filter?: CredentialQueryFilter | null },
): Promise<CredentialRecord[]> {
  const f = input.filter ?? {};
  const rows = await store.listCredentials(deps.store.db, ctx.orgUuid, {
    userUuid: input.userUuid,
    userUuids: input.userUuids,
    types: f.credTypeFilter?.map(canonicalCredentialType),
    statuses: f.workflowStatusFilter ?? undefined,
    lastUsedDoorUuids: f.lastUsedAccessControlledDoorUuidFilter ?? undefined,
    lastUsedLocationUuids: f.lastUsedLocationUuidFilter ?? undefined,
    lastUsedAfterMs: f.lastUsedAfterFilter ?? undefined,
    lastUsedBeforeMs: f.lastUsedBeforeFilter ?? undefined,
  });
  return rows.map(toCredentialRecord);
}

/**
 * The workflow of a credential. Created ACTIVE (with a holder) or UNASSIGNED (without).
 *   suspend:   ACTIVE -> SUSPENDED
 *   unsuspend: SUSPENDED -> ACTIVE
 *   revoke:    ACTIVE | SUSPENDED | UNASSIGNED -> REVOKED (final; releases the value for another credential)
 *   delete:    from any state (revoking keeps the history; deleting removes the record)
 * Anything else is refused, naming the state the credential is in.
 */
export const CREDENTIAL_TRANSITIONS = {
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  unsuspend: { from: ['SUSPENDED'], to: 'ACTIVE' },
  revoke: { from: ['ACTIVE', 'SUSPENDED', 'UNASSIGNED'], to: 'REVOKED' },
} as const satisfies Record<string, { from: readonly WorkflowStatus[]; to: WorkflowStatus }>;
export type CredentialTransition = keyof typeof CREDENTIAL_TRANSITIONS;

async function credentialOf(w: WriteScope, uuid: string): Promise<CredentialsTable> {
  const row = await store.findCredential(w.tx, w.actor.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Credential');
  return row;
}

/** Moves a credential along its workflow (see CREDENTIAL_TRANSITIONS); each change is audited and streamed. */
export async function transitionCredential(
  deps: CredentialDeps,
  ctx: CallerContext,
  transition: CredentialTransition,
  input: { credentialUuid: string },
): Promise<CredentialRecord> {
  const { from, to } = CREDENTIAL_TRANSITIONS[transition];
  return write(deps, ctx, async (w) => {
    const row = await credentialOf(w, input.credentialUuid);
    if (!(from as readonly WorkflowStatus[]).includes(row.workflow_status)) {
      throw fail('NOT_ALLOWED', `Cannot ${transition} a ${row.workflow_status} credential (only ${from.join(' or ')})`);
    }
    await store.updateCredential(w.tx, ctx.orgUuid, row.uuid, {
      workflow_status: to,
      ...(to === 'REVOKED' ? { claimed_key: null } : {}),
      updated_at_ms: w.nowMs,
    });
    const record = toCredentialRecord((await store.findCredential(w.tx, ctx.orgUuid, row.uuid))!);
    await recordCredentialChange(w, 'UPDATE', record);
    return record;
  });
}

export async function deleteCredential(deps: CredentialDeps, ctx: CallerContext, input: { credentialUuid: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await credentialOf(w, input.credentialUuid);
    await store.deleteCredential(w.tx, ctx.orgUuid, row.uuid);
    await recordCredentialChange(w, 'DELETE', toCredentialRecord(row));
  });
}

/**
 * The credential a reader's presentation names: the live one claiming the value, else the latest that once
 * held it (a revoked card is recognised, and refused as revoked). With a type, only a credential of that type.
 */
export async function findPresentedCredential(
  source: ReadSource,
  orgUuid: string,
  type: CredentialType | null,
  presented: string,
): Promise<CredentialRecord | null> {
  const key = lookupKey(type, presented);
  const db = dbOf(source);
  const row = (await store.findClaimingCredential(db, orgUuid, key)) ?? (await store.findLatestByLookupKey(db, orgUuid, key));
  return row && (type === null || row.type === type) ? toCredentialRecord(row) : null;
}

/** Notes where and when a credential was last presented. */
export async function markCredentialUsed(w: WriteScope, credential: CredentialRecord, door: DoorRecord, atMs: number): Promise<void> {
  await store.updateCredential(w.tx, credential.orgUuid, credential.uuid, {
    last_used_at_ms: atMs,
    last_used_door_uuid: door.uuid,
    last_used_location_uuid: door.locationUuid,
    updated_at_ms: w.nowMs,
  });
  const record = toCredentialRecord((await store.findCredential(w.tx, credential.orgUuid, credential.uuid))!);
  w.change({ entity: CREDENTIAL_ENTITY, entityUuid: credential.uuid, type: 'UPDATE', update: credentialAnswer(record) });
}

/** Revokes every live credential of a user, inside the caller's write (the user is being deleted). */
export async function revokeCredentialsOfUser(w: WriteScope, userUuid: string): Promise<number> {
  const live = await store.listCredentials(w.tx, w.actor.orgUuid, { userUuid, statuses: CREDENTIAL_TRANSITIONS.revoke.from });
  for (const row of live) {
    await store.updateCredential(w.tx, w.actor.orgUuid, row.uuid, { workflow_status: 'REVOKED', claimed_key: null, updated_at_ms: w.nowMs });
    await recordCredentialChange(w, 'UPDATE', toCredentialRecord((await store.findCredential(w.tx, w.actor.orgUuid, row.uuid))!));
  }
  return live.length;
}

/** A deleted user's credentials are revoked (src/records/references.ts). */
export const credentialsForgetUser: RecordCleaner = async (w, userUuid) => {
  await revokeCredentialsOfUser(w, userUuid);
};
