import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write, type Actor, type WriteScope } from '../../bus/write.js';
import { generateApiKey, digestApiKey, keyRefusal, type KeyRefusal } from './keys/api-keys.js';
import * as store from './store.js';
import { listUsers as listUserRows } from './users/store.js';
import { emailColumns } from './users/emails.js';
import type { ApiKeyKind } from '../../context.js';
import type { ApiKeysTable, OrgsTable, UsersTable } from './tables.js';
import type { RecordFinder } from '../../records/references.js';
import { orgUuidsIn } from '../../store/org-uuids.js';

type OrgDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>;

export interface OrgRecord {
  uuid: string;
  name: string;
  createdAtMillis: number;
  deleted: boolean;
}

export function toOrgRecord(row: OrgsTable): OrgRecord {
  return { uuid: row.uuid, name: row.name, createdAtMillis: row.created_at_ms, deleted: false };
}

export interface CreatedOrg {
  orgUuid: string;
  userUuid: string;
  apiKey: string;
}

/** Creates an organization with its first user and a standard API key for that user. */
export async function createOrg(
  deps: OrgDeps,
  input: { name: string; userName?: string; email?: string | null },
  operation = 'org.create',
): Promise<CreatedOrg> {
  const name = input.name.trim();
  if (!name) throw fail('INVALID_VALUE', 'name must not be empty');
  const orgUuid = newRuuid();
  const userUuid = newRuuid();
  const apiKey = generateApiKey(deps.config.region);
  await write(deps, systemActor(orgUuid, operation), async (w) => {
    await store.insertOrg(w.tx, { uuid: orgUuid, name, created_at_ms: w.nowMs });
    await store.insertUser(w.tx, {
      uuid: userUuid,
      org_uuid: orgUuid,
      name: input.userName ?? `${name} Administrator`,
      email: input.email ?? null,
      created_at_ms: w.nowMs,
    });
    const keyId = await insertKey(w.tx, deps, { orgUuid, userUuid, kind: 'standard', apiKey, nowMs: w.nowMs, certFingerprint: null, expiresAtMs: null });
    w.audit({ entity: 'ORG', entityUuid: orgUuid, action: 'CREATE' });
    w.audit({ entity: 'USER', entityUuid: userUuid, action: 'CREATE' });
    w.audit({ entity: 'API_KEY', entityUuid: keyId, action: 'CREATE' });
  });
  return { orgUuid, userUuid, apiKey };
}

async function insertKey(
  db: Parameters<typeof store.insertApiKey>[0],
  deps: Pick<Deps, 'config'>,
  k: {
    orgUuid: string;
    userUuid: string | null;
    kind: ApiKeyKind;
    apiKey: string;
    nowMs: number;
    certFingerprint: string | null;
    expiresAtMs: number | null;
  },
): Promise<string> {
  const id = newRuuid();
  await store.insertApiKey(db, {
    id,
    org_uuid: k.orgUuid,
    user_uuid: k.userUuid,
    kind: k.kind,
    digest: digestApiKey(k.apiKey),
    hint: k.apiKey.slice(-4),
    region: deps.config.region,
    cert_fingerprint: k.certFingerprint,
    created_at_ms: k.nowMs,
    revoked_at_ms: null,
    expires_at_ms: k.expiresAtMs,
  });
  return id;
}

/**
 * Issues a new key for an organization, for its first user. A partner key acts for the client
 * organizations that the partner organization has grants for; an internal key reaches the internal operations.
 * A key with `expiresAtMs` (or `ttlMs` from its creation) stops working by itself then; with `userUuid` it acts as that user.
 */
export async function createApiKey(
  deps: OrgDeps,
  input: NewApiKey,
  actor: Actor = systemActor(input.orgUuid, 'key.create'),
): Promise<{ apiKey: string; keyId: string }> {
  return write(deps, actor, (w) => issueApiKey(w, deps, input));
}

export interface NewApiKey {
  orgUuid: string;
  kind: ApiKeyKind;
  certFingerprint?: string | null;
  expiresAtMs?: number | null;
  ttlMs?: number;
  userUuid?: string | null;
}

/** createApiKey inside a write that does more (an API-token application keeps its record in the same transaction). */
export async function issueApiKey(w: WriteScope, deps: Pick<Deps, 'config'>, input: NewApiKey): Promise<{ apiKey: string; keyId: string }> {
  const apiKey = generateApiKey(deps.config.region);
  const expiresAtMs = input.ttlMs !== undefined ? w.nowMs + input.ttlMs : (input.expiresAtMs ?? null);
  if (expiresAtMs !== null && expiresAtMs <= w.nowMs) throw fail('INVALID_VALUE', 'a key must expire in the future');
  const org = await store.findOrg(w.tx, input.orgUuid);
  if (!org) throw fail('NOT_FOUND', `Organization ${input.orgUuid}`);
  // An organization lives in the region its keys were issued for: a key of another region would never work.
  const region = (await store.listApiKeys(w.tx, input.orgUuid)).find((k) => k.region !== deps.config.region)?.region;
  if (region)
    throw fail('INVALID_VALUE', `Organization ${input.orgUuid} is in the ${region} region, not ${deps.config.region}: issue its keys with region ${region}`);
  const user = input.userUuid ? await store.findUser(w.tx, input.orgUuid, input.userUuid) : await store.findFirstUser(w.tx, input.orgUuid);
  if (input.userUuid && !user) throw fail('NOT_FOUND', `User ${input.userUuid} of organization ${input.orgUuid}`);
  const keyId = await insertKey(w.tx, deps, {
    orgUuid: input.orgUuid,
    userUuid: user?.uuid ?? null,
    kind: input.kind,
    apiKey,
    nowMs: w.nowMs,
    certFingerprint: input.certFingerprint ?? null,
    expiresAtMs,
  });
  w.audit({ entity: 'API_KEY', entityUuid: keyId, action: 'CREATE' });
  return { apiKey, keyId };
}

/** A key as an operator sees it: never the key itself, only its last four characters. */
export interface ApiKeyRecord {
  keyId: string;
  kind: ApiKeyKind;
  userUuid: string | null;
  hint: string;
  /** Whether it needs a client certificate (the api and partner-api schemes). */
  certificate: boolean;
  createdAtMs: number;
  expiresAtMs: number | null;
  revokedAtMs: number | null;
}

function toApiKeyRecord(row: ApiKeysTable): ApiKeyRecord {
  return {
    keyId: row.id,
    kind: row.kind,
    userUuid: row.user_uuid,
    hint: row.hint,
    certificate: row.cert_fingerprint !== null,
    createdAtMs: row.created_at_ms,
    expiresAtMs: row.expires_at_ms,
    revokedAtMs: row.revoked_at_ms,
  };
}

/** The organization's keys, oldest first, revoked and expired ones included. */
export async function listApiKeys(deps: Pick<Deps, 'store'>, input: { orgUuid: string }): Promise<ApiKeyRecord[]> {
  if (!(await store.findOrg(deps.store.db, input.orgUuid))) throw fail('NOT_FOUND', `Organization ${input.orgUuid}`);
  return (await store.listApiKeys(deps.store.db, input.orgUuid)).map(toApiKeyRecord);
}

/**
 * Revokes a key of the organization; false when it was revoked already. This instance forgets it at once;
 * `key.revoked` on the bus tells the other instances sharing the bus to forget it and to close the stream
 * sessions it opened. An instance that misses the announcement (another bus) refuses the key within
 * KEY_CACHE_TTL_MS (src/domains/orgs/keys/key-cache.ts), and its stream's key check closes the sessions.
 */
export async function revokeApiKey(
  deps: OrgDeps & Pick<Deps, 'keyCache'>,
  input: { orgUuid: string; keyId: string },
  actor: Actor = systemActor(input.orgUuid, 'key.revoke'),
): Promise<boolean> {
  const revoked = await write(deps, actor, async (w) => {
    const key = await store.findApiKey(w.tx, input.orgUuid, input.keyId);
    if (!key) throw fail('NOT_FOUND', `API key ${input.keyId} of organization ${input.orgUuid}`);
    if (!(await store.revokeApiKey(w.tx, key.id, w.nowMs))) return false;
    w.audit({ entity: 'API_KEY', entityUuid: key.id, action: 'REVOKE' });
    return true;
  });
  if (revoked) {
    deps.keyCache.forgetKey(input.keyId);
    // The revocation is committed; a bus hiccup leaves the other instances to their cache TTL and key check.
    await deps.bus.publish('key.revoked', { orgUuid: input.orgUuid, keyId: input.keyId }).catch(() => {});
  }
  return revoked;
}

/** Why a key that worked no longer does; `deleted`: it is gone (a reset or restore of the store). */
export type KeyEnd = KeyRefusal | 'deleted';

/**
 * Of the keys with these ids, those that no longer work, and why: for the stream, whose sessions outlive
 * the handshake that authenticated them.
 */
export async function refusedKeys(deps: Pick<Deps, 'store' | 'clock'>, keyIds: string[]): Promise<Map<string, KeyEnd>> {
  const nowMs = deps.clock.now();
  const refused = new Map<string, KeyEnd>(keyIds.map((id) => [id, 'deleted']));
  for (const key of await store.apiKeyLifetimes(deps.store.db, keyIds)) {
    const refusal = keyRefusal(key, nowMs);
    if (refusal) refused.set(key.id, refusal);
    else refused.delete(key.id);
  }
  return refused;
}

/** Lets the partner organization's partner keys act for the client organization. Idempotent. */
export async function grantPartner(deps: OrgDeps, input: { partnerOrgUuid: string; clientOrgUuid: string }): Promise<{ granted: boolean }> {
  if (input.partnerOrgUuid === input.clientOrgUuid) throw fail('INVALID_VALUE', 'a partner organization cannot be its own client');
  return write(deps, systemActor(input.clientOrgUuid, 'partner.grant'), async (w) => {
    for (const uuid of [input.partnerOrgUuid, input.clientOrgUuid]) {
      if (!(await store.findOrg(w.tx, uuid))) throw fail('NOT_FOUND', `Organization ${uuid}`);
    }
    const granted = await store.insertPartnerGrant(w.tx, input.partnerOrgUuid, input.clientOrgUuid, w.nowMs);
    if (granted) w.audit({ entity: 'PARTNER_GRANT', entityUuid: input.partnerOrgUuid, action: 'CREATE' });
    return { granted };
  });
}

export async function getOrg(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>): Promise<OrgRecord> {
  const org = await store.findOrg(deps.store.db, ctx.orgUuid);
  if (!org) throw fail('NOT_FOUND', 'Organization');
  return toOrgRecord(org);
}

export async function hasAnyOrg(deps: Pick<Deps, 'store'>): Promise<boolean> {
  return (await store.countOrgs(deps.store.db)) > 0;
}

export interface UserRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  email: string | null;
  createdAtMillis: number;
}

export function toUserRecord(row: UsersTable): UserRecord {
  return { uuid: row.uuid, orgUuid: row.org_uuid, name: row.name, email: row.email, createdAtMillis: row.created_at_ms };
}

/** A user to create: a group of the organization, or none (full rights). */
interface NewUser {
  name: string;
  email?: string | null;
  permissionGroupUuid?: string | null;
}

/** Creates a user of the writer's organization (with no key: keys are issued separately). */
export async function createUser(w: WriteScope, input: NewUser): Promise<UserRecord> {
  return (await createUsers(w, [input]))[0];
}

/** Creates many users in the write, in as few statements as the store's bind-parameter limit allows (site files). */
export async function createUsers(w: WriteScope, inputs: readonly NewUser[]): Promise<UserRecord[]> {
  const rows: UsersTable[] = inputs.map((input) => ({
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name: input.name,
    ...emailColumns(input.email),
    created_at_ms: w.nowMs,
    permission_group_uuid: input.permissionGroupUuid ?? null,
  }));
  await store.insertUsers(w.tx, rows);
  return rows.map((row) => {
    const record = toUserRecord(row);
    w.change({ entity: 'USER', entityUuid: row.uuid, type: 'CREATE', update: record });
    return record;
  });
}

/** The organization's users (a site file seeded again finds its users by name). */
export async function listUserRecords(source: ReadSource, orgUuid: string): Promise<UserRecord[]> {
  return (await listUserRows(dbOf(source), orgUuid)).map(toUserRecord);
}

/** A user of the organization; null for a missing one or another organization's. */
/** The organization's users among the uuids, in one query; another organization's and unknown ones are left out. */
export async function findUsers(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<UserRecord[]> {
  return (await store.findUsers(dbOf(source), orgUuid, uuids)).map(toUserRecord);
}

/** The record finder of kind user (src/records/references.ts). */
export const findUserUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'users', orgUuid, uuids);

export async function findUser(source: ReadSource, orgUuid: string, uuid: string): Promise<UserRecord | null> {
  const row = await store.findUser(dbOf(source), orgUuid, uuid);
  return row ? toUserRecord(row) : null;
}

/** How long a temporary org token works. */
export const TEMPORARY_TOKEN_TTL_MS = 10 * 60_000;

/**
 * getTemporaryOrgToken: a new key that acts exactly as the calling one (same organization, kind and user, so
 * the same rights) and stops working TEMPORARY_TOKEN_TTL_MS later. A partner key's token is a partner key of
 * the partner organization, used with `x-auth-org` as the partner key is.
 */
export async function temporaryOrgToken(deps: OrgDeps, ctx: CallerContext): Promise<string> {
  const orgUuid = ctx.partnerOrgUuid ?? ctx.orgUuid;
  const { apiKey } = await createApiKey(deps, { orgUuid, kind: ctx.keyKind, userUuid: ctx.userUuid, ttlMs: TEMPORARY_TOKEN_TTL_MS }, { ...ctx, orgUuid });
  return apiKey;
}

/** Who an audit event names, by id: its users, its partners (organizations) and its API keys. */
export interface Principals {
  users: readonly string[];
  partnerOrgs: readonly string[];
  apiKeys: readonly string[];
}

/**
 * The names the audit feed gives its principals (principalName), by id: a user's name (else the e-mail), a
 * partner's organization name, an API key by its last four characters (keys have no name). An id that names
 * nothing any more (a deleted user) has none.
 */
export async function principalNames(source: ReadSource, orgUuid: string, principals: Principals): Promise<Map<string, string>> {
  const db = dbOf(source);
  const names = new Map<string, string>();
  for (const user of await store.findUsers(db, orgUuid, principals.users)) names.set(user.uuid, user.name || (user.email ?? ''));
  for (const uuid of principals.partnerOrgs) {
    const org = await store.findOrg(db, uuid);
    if (org) names.set(uuid, org.name);
  }
  for (const id of principals.apiKeys) {
    const key = await store.findApiKey(db, orgUuid, id);
    if (key) names.set(id, `API key ...${key.hint}`);
  }
  return names;
}
