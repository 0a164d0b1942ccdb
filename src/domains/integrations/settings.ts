import type { CallerContext } from '../../context.js';
import { systemActor, type Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { maskSecret } from '../../secrets.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import { findUser } from '../orgs/service.js';
import * as store from './store.js';
import { isPartnerKind, partnerSecretFields } from './partners/catalogue.js';
import type { CoreIntegrationKind, IntegrationKind, IntegrationsTable } from './tables.js';

export type IntegrationDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config' | 'log' | 'keyCache'>;

/** The fields of each kind modelled in full that are secrets: sealed at rest with the record's identity, answered masked. */
export const SECRET_FIELDS: Record<CoreIntegrationKind, readonly string[]> = {
  SMART_SENSOR: [],
  CHAT: ['webhookUrl'],
  BADGE: ['apiToken', 'platformToken', 'webhookSignatureSecret'],
  VIDEO_ANALYTICS: [],
  TICKETING: ['password'],
  WEBHOOK: ['webhookSecret'],
};

/** The secret fields of any kind: a partner's are those its table entry types as secrets. */
export const secretFieldsOf = (kind: IntegrationKind): readonly string[] => (isPartnerKind(kind) ? partnerSecretFields(kind) : SECRET_FIELDS[kind]);

/** The change-event entity of every integration. */
export const INTEGRATION_ENTITY = 'INTEGRATION';
const AUDIT_ENTRIES_KEPT = 20;

/** How a secret field is answered: an incoming-webhook URL by its host only; any other by maskSecret. */
function maskOf(field: string, plaintext: string): string {
  if (field === 'webhookUrl') {
    try {
      const url = new URL(plaintext);
      return `${url.protocol}//${url.host}/****`;
    } catch {
      return '****';
    }
  }
  return maskSecret(plaintext)!;
}

const looksMasked = (value: string) => value.startsWith('****') || value.endsWith('/****');

interface SealedSecret {
  sealed: string;
  /** The masked form (maskSecret), kept so that reads never decrypt. */
  masked: string;
}

export interface AuditEntry {
  enabledTimestampMs: number | null;
  integrationAuditEvent: 'UPDATE' | 'DELETE';
  user: string | null;
  userUuid: string | null;
}

export interface Integration {
  uuid: string;
  orgUuid: string;
  kind: IntegrationKind;
  enabled: boolean;
  /** The settings as saved, without secrets. */
  settings: Record<string, unknown>;
  secrets: Record<string, SealedSecret>;
  auditMap: Record<string, AuditEntry>;
  webhookUuid: string | null;
  apiKeyId: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

function toIntegration(row: IntegrationsTable): Integration {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    kind: row.kind,
    enabled: fromDbBool(row.enabled) ?? false,
    settings: fromJson<Record<string, unknown>>(row.settings) ?? {},
    secrets: fromJson<Record<string, SealedSecret>>(row.secrets) ?? {},
    auditMap: fromJson<Record<string, AuditEntry>>(row.audit_map) ?? {},
    webhookUuid: row.webhook_uuid,
    apiKeyId: row.api_key_id,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  };
}

export async function findIntegration(source: ReadSource, orgUuid: string, kind: IntegrationKind): Promise<Integration | null> {
  const row = await store.findIntegration(dbOf(source), orgUuid, kind);
  return row ? toIntegration(row) : null;
}

export async function listIntegrations(source: ReadSource, orgUuid: string): Promise<Integration[]> {
  return (await store.listIntegrations(dbOf(source), orgUuid)).map(toIntegration);
}

export async function findIntegrationByWebhook(source: ReadSource, webhookUuid: string): Promise<Integration | null> {
  const row = await store.findIntegrationByWebhook(dbOf(source), webhookUuid);
  return row ? toIntegration(row) : null;
}

/** The associated data a secret is sealed with: a sealed value moved to another record or field does not open. */
export const secretIdentity = (orgUuid: string, kind: IntegrationKind, field: string) => `integration:${orgUuid}:${kind}:${field}`;

export function openSecret(deps: Pick<Deps, 'secrets'>, integration: Integration, field: string): string | null {
  const secret = integration.secrets[field];
  return secret ? deps.secrets.open(secret.sealed, secretIdentity(integration.orgUuid, integration.kind, field)) : null;
}

/** The settings as the REST API answers them: secrets masked, never their values. */
export function publicSettings(integration: Integration): Record<string, unknown> {
  const masked = Object.fromEntries(secretFieldsOf(integration.kind).map((f) => [f, integration.secrets[f]?.masked ?? null]));
  return { ...integration.settings, ...masked };
}

/** The record that change events carry. */
/** An INTEGRATION change: an integration's public settings (never a secret). */
export type IntegrationChangeRecord = ReturnType<typeof changeRecord>;

function changeRecord(integration: Integration) {
  return {
    uuid: integration.uuid,
    orgUuid: integration.orgUuid,
    integration: integration.kind,
    enabled: integration.enabled,
    settings: publicSettings(integration),
    updatedAtMs: integration.updatedAtMs,
  };
}

/**
 * The plaintext of each secret field after an update: a value equal to the stored secret's masked form keeps
 * the stored secret; an absent or empty one clears it (the update replaces the whole settings); any other
 * value that looks masked is refused, since it cannot be the secret itself.
 */
function resolveSecrets(
  deps: Pick<Deps, 'secrets'>,
  kind: IntegrationKind,
  input: Record<string, unknown>,
  existing: Integration | null,
): Record<string, string | null> {
  const resolved: Record<string, string | null> = {};
  for (const field of secretFieldsOf(kind)) {
    const given = input[field];
    const stored = existing?.secrets[field];
    if (typeof given !== 'string' || given === '') resolved[field] = null;
    else if (stored && given === stored.masked) resolved[field] = openSecret(deps, existing!, field);
    else if (looksMasked(given))
      throw fail('INVALID_VALUE', `${field}: a masked value that is not the stored secret's; send the secret itself, or its masked form to keep it`);
    else resolved[field] = given;
  }
  return resolved;
}

/** What a kind's rules make of an update before it is saved. */
export interface Prepared {
  /** The settings to store, without secrets and without the enabling fields (the core sets those). */
  settings: Record<string, unknown>;
  enabled: boolean;
  misconfiguredDoors?: string[];
  authError?: boolean;
  warnings?: string[];
  webhookUuid?: string | null;
  apiKeyId?: string | null;
}

export interface UpdateResult {
  error?: boolean;
  errorMsg?: string | null;
  warningMsg?: string | null;
  authError: boolean;
  failedGuids: string[];
  misconfiguredDoors: string[];
}

export interface PrepareContext {
  existing: Integration | null;
  /** Secret plaintexts after the update (see resolveSecrets); null for none. */
  secrets: Record<string, string | null>;
  /** Where the kind's checks add the identifiers that are not the organization's records. */
  failedGuids: string[];
}

/**
 * Saves an integration's whole settings: the kind's `prepare` checks them (and may call out to the third
 * party), then one write replaces the record, seals its secrets, stamps who enabled it, appends to its
 * audit map, and announces the change with the secrets masked.
 */
export async function saveIntegration(
  deps: IntegrationDeps,
  ctx: CallerContext,
  kind: IntegrationKind,
  input: Record<string, unknown>,
  prepare: (c: PrepareContext) => Promise<Prepared>,
): Promise<UpdateResult> {
  const existing = await findIntegration(deps, ctx.orgUuid, kind);
  const secrets = resolveSecrets(deps, kind, input, existing);
  const failedGuids: string[] = [];
  const prepared = await prepare({ existing, secrets, failedGuids });
  const enabling = await enablingFields(deps, ctx, input, prepared.enabled, existing, failedGuids);

  await write(deps, ctx, async (w) => {
    const webhookUuid = prepared.webhookUuid === undefined ? (existing?.webhookUuid ?? null) : prepared.webhookUuid;
    if (webhookUuid) {
      const holder = await findIntegrationByWebhook(w, webhookUuid);
      if (holder && holder.orgUuid !== ctx.orgUuid) throw fail('CONFLICT', 'webhookUuid: already in use; choose another or leave it out to have one generated');
    }
    const current = await findIntegration(w, ctx.orgUuid, kind);
    const integration: Integration = {
      uuid: current?.uuid ?? newRuuid(),
      orgUuid: ctx.orgUuid,
      kind,
      enabled: prepared.enabled,
      settings: { ...prepared.settings, ...enabling, enabled: prepared.enabled },
      secrets: Object.fromEntries(
        Object.entries(secrets)
          .filter((e): e is [string, string] => e[1] !== null)
          .map(([field, plaintext]) => [
            field,
            { sealed: deps.secrets.seal(plaintext, secretIdentity(ctx.orgUuid, kind, field)), masked: maskOf(field, plaintext) },
          ]),
      ),
      auditMap: withAuditEntry(current?.auditMap ?? {}, w.nowMs, {
        enabledTimestampMs: enabling.enabledTimestampMs,
        integrationAuditEvent: 'UPDATE',
        user: await callerName(w, ctx),
        userUuid: ctx.userUuid,
      }),
      webhookUuid,
      apiKeyId: prepared.apiKeyId === undefined ? (current?.apiKeyId ?? null) : prepared.apiKeyId,
      createdAtMs: current?.createdAtMs ?? w.nowMs,
      updatedAtMs: w.nowMs,
    };
    await store.upsertIntegration(w.tx, toRow(integration));
    w.change({ entity: INTEGRATION_ENTITY, entityUuid: integration.uuid, type: current ? 'UPDATE' : 'CREATE', update: changeRecord(integration) });
  });

  deps.log.info(
    {
      component: 'integrations',
      orgUuid: ctx.orgUuid,
      kind,
      enabled: prepared.enabled,
      authError: prepared.authError ?? false,
      failedGuids: failedGuids.length,
    },
    'integration saved',
  );
  const warnings = [...(prepared.warnings ?? [])];
  if (failedGuids.length > 0)
    warnings.unshift(`${failedGuids.length} identifier(s) are not records of this organization and were left out; the rest of the update applied`);
  const result: UpdateResult = {
    authError: prepared.authError ?? false,
    failedGuids,
    misconfiguredDoors: prepared.misconfiguredDoors ?? [],
    warningMsg: warnings.length > 0 ? warnings.join('; ') : null,
  };
  if (prepared.authError)
    return { ...result, error: true, errorMsg: 'The third-party system refused the credentials; the settings were saved with the integration disabled' };
  return result;
}

/** Deletes an integration; `beforeDelete` undoes what it holds elsewhere (an issued key). */
export async function deleteIntegration(
  deps: IntegrationDeps,
  ctx: CallerContext,
  kind: IntegrationKind,
  what: string,
  beforeDelete?: (integration: Integration) => Promise<void>,
): Promise<void> {
  const existing = await findIntegration(deps, ctx.orgUuid, kind);
  if (!existing) throw fail('NOT_FOUND', what);
  await beforeDelete?.(existing);
  await write(deps, ctx, async (w) => {
    if (!(await store.deleteIntegration(w.tx, ctx.orgUuid, kind))) throw fail('NOT_FOUND', what);
    w.change({ entity: INTEGRATION_ENTITY, entityUuid: existing.uuid, type: 'DELETE', update: { ...changeRecord(existing), enabled: false } });
  });
}

/** Turns an integration off without its owner (the classic webhook's receiver answered 410), announced on the stream. */
export async function disableIntegration(deps: IntegrationDeps, orgUuid: string, kind: IntegrationKind, operation: string): Promise<boolean> {
  return write(deps, systemActor(orgUuid, operation), async (w) => {
    const current = await findIntegration(w, orgUuid, kind);
    if (!current?.enabled) return false;
    const integration: Integration = { ...current, enabled: false, settings: { ...current.settings, enabled: false }, updatedAtMs: w.nowMs };
    await store.upsertIntegration(w.tx, toRow(integration));
    w.change({ entity: INTEGRATION_ENTITY, entityUuid: integration.uuid, type: 'UPDATE', update: changeRecord(integration) });
    return true;
  });
}

function toRow(i: Integration): IntegrationsTable {
  return {
    uuid: i.uuid,
    org_uuid: i.orgUuid,
    kind: i.kind,
    enabled: toDbBool(i.enabled)!,
    settings: toJson(i.settings)!,
    secrets: toJson(i.secrets)!,
    audit_map: toJson(i.auditMap)!,
    webhook_uuid: i.webhookUuid,
    api_key_id: i.apiKeyId,
    created_at_ms: i.createdAtMs,
    updated_at_ms: i.updatedAtMs,
  };
}

function withAuditEntry(map: Record<string, AuditEntry>, nowMs: number, entry: AuditEntry): Record<string, AuditEntry> {
  let key = String(nowMs);
  for (let n = 1; key in map; n++) key = `${nowMs}-${n}`;
  const entries = [...Object.entries(map), [key, entry] as const].slice(-AUDIT_ENTRIES_KEPT);
  return Object.fromEntries(entries);
}

async function callerName(source: ReadSource, ctx: CallerContext): Promise<string | null> {
  return ctx.userUuid ? ((await findUser(source, ctx.orgUuid, ctx.userUuid))?.name ?? null) : null;
}

/**
 * enabledTimestampMs, enablingUser and enablingUserUuid: as given; else, when this update enables the
 * integration, the caller and now; when it was enabled already, as they were.
 */
async function enablingFields(
  deps: IntegrationDeps,
  ctx: CallerContext,
  input: Record<string, unknown>,
  enabled: boolean,
  existing: Integration | null,
  failedGuids: string[],
) {
  const given = {
    enabledTimestampMs: (input.enabledTimestampMs as number | null | undefined) ?? null,
    enablingUser: (input.enablingUser as string | null | undefined) ?? null,
    enablingUserUuid: (input.enablingUserUuid as string | null | undefined) ?? null,
  };
  if (given.enablingUserUuid && !(await findUser(deps, ctx.orgUuid, given.enablingUserUuid))) {
    failedGuids.push(given.enablingUserUuid);
    given.enablingUserUuid = null;
  }
  if (!enabled) return given;
  const before = existing?.enabled ? existing.settings : null;
  return {
    enabledTimestampMs: given.enabledTimestampMs ?? (before?.enabledTimestampMs as number | undefined) ?? deps.clock.now(),
    enablingUser: given.enablingUser ?? (before?.enablingUser as string | undefined) ?? (await callerName(deps, ctx)),
    enablingUserUuid: given.enablingUserUuid ?? (before?.enablingUserUuid as string | undefined) ?? ctx.userUuid,
  };
}
