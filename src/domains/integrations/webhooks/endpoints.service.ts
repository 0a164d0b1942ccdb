import type { Deps } from '../../../deps.js';
import { newRuuid } from '../../../ids.js';
import { maskSecret } from '../../../secrets.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { latestChangeEventId } from '../../changes/service.js';
import { newSigningSecret } from '../../../outbox/standard-webhooks.js';
import type { IntegrationDeps } from '../settings.js';
import * as store from './store.js';
import type { EndpointPurpose, WebhookEndpointsTable } from './tables.js';

/** The stream's entity of a V2 webhook URL or a subscription (created, changed, disabled, deleted). */
export const ENDPOINT_ENTITY = 'WEBHOOK_ENDPOINT';

/** A subscription's filter (subscribeZapierWebhook). */
export interface SubscriptionFilter {
  zapEnum: string;
  uuids: string[];
  doorState: string | null;
  tempLowerThreshold: number | null;
  tempUpperThreshold: number | null;
  humidityLowerThreshold: number | null;
  humidityUpperThreshold: number | null;
}

/**
 * An event listener's filter (developer/createEventListener): the activities it wants (none: all) of one device
 * (none: every device), and the TLS material it was registered with, the private key sealed.
 */
export interface ListenerFilter {
  activities: string[];
  deviceUuid: string | null;
  hostname: string | null;
  clientCertificate: string | null;
  trustedCertificate: string | null;
  sealedClientKey: string | null;
}

export interface Endpoint {
  uuid: string;
  orgUuid: string;
  purpose: EndpointPurpose;
  url: string;
  disabled: boolean;
  disabledReason: string | null;
  secretMasked: string | null;
  sealedSecret: string | null;
  filter: SubscriptionFilter | null;
  listener: ListenerFilter | null;
  backoffSec: number | null;
  /** Changes up to this change-log id predate the endpoint (or its enabling) and are not sent to it. */
  sinceChangeId: number;
  createdAtMs: number;
  updatedAtMs: number;
}

export function toEndpoint(row: WebhookEndpointsTable): Endpoint {
  const filter = fromJson<SubscriptionFilter | ListenerFilter | Record<string, never>>(row.filter) ?? {};
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    purpose: row.purpose,
    url: row.url,
    disabled: fromDbBool(row.disabled) ?? false,
    disabledReason: row.disabled_reason,
    secretMasked: row.secret_masked,
    sealedSecret: row.secret,
    filter: 'zapEnum' in filter ? (filter as SubscriptionFilter) : null,
    listener: row.purpose === 'LISTENER' ? (filter as ListenerFilter) : null,
    backoffSec: row.backoff_sec,
    sinceChangeId: Number(row.since_change_id),
    createdAtMs: Number(row.created_at_ms),
    updatedAtMs: Number(row.updated_at_ms),
  };
}

/** The record the stream carries: never the secret, only its masked form. */
/** A webhook URL as the stream carries it (its secret masked). */
export type EndpointRecord = ReturnType<typeof endpointRecord>;

export function endpointRecord(e: Endpoint) {
  return {
    uuid: e.uuid,
    orgUuid: e.orgUuid,
    purpose: e.purpose,
    url: e.url,
    webhookDisabled: e.disabled,
    disabledReason: e.disabledReason,
    webhookSecret: e.secretMasked,
    ...(e.filter ? { ...e.filter, backoffSec: e.backoffSec } : {}),
    ...(e.listener ? { activities: e.listener.activities, deviceUuid: e.listener.deviceUuid, hostname: e.listener.hostname } : {}),
    updatedAtMs: e.updatedAtMs,
  };
}

/** Secrets are sealed with the endpoint's identity: a sealed value moved to another row does not open. */
const secretIdentity = (orgUuid: string, uuid: string) => `webhook-endpoint:${orgUuid}:${uuid}`;

export function openEndpointSecret(deps: Pick<Deps, 'secrets'>, e: Endpoint): string | null {
  return e.sealedSecret ? deps.secrets.open(e.sealedSecret, secretIdentity(e.orgUuid, e.uuid)) : null;
}

export async function listOrgEndpoints(source: ReadSource, orgUuid: string, purposes: readonly EndpointPurpose[]): Promise<Endpoint[]> {
  return (await store.listEndpoints(dbOf(source), orgUuid, purposes)).map(toEndpoint);
}

export async function findOrgEndpoint(source: ReadSource, orgUuid: string, uuid: string): Promise<Endpoint | null> {
  const row = await store.findEndpoint(dbOf(source), orgUuid, uuid);
  return row ? toEndpoint(row) : null;
}

export interface NewEndpoint {
  purpose: EndpointPurpose;
  url: string;
  /** The signing secret in plaintext; null: deliveries are not signed. */
  secret: string | null;
  disabled: boolean;
  filter?: SubscriptionFilter | ListenerFilter;
  backoffSec?: number | null;
}

/** Adds an endpoint inside a write and announces it. */
export async function addEndpoint(deps: Pick<Deps, 'secrets'>, w: WriteScope, input: NewEndpoint): Promise<Endpoint> {
  const uuid = newRuuid();
  const orgUuid = w.actor.orgUuid;
  const row: WebhookEndpointsTable = {
    uuid,
    org_uuid: orgUuid,
    purpose: input.purpose,
    endpoint_key: input.purpose === 'SUBSCRIPTION' || input.purpose === 'LISTENER' ? uuid : `${input.purpose}:${input.url}`,
    url: input.url,
    secret: input.secret ? deps.secrets.seal(input.secret, secretIdentity(orgUuid, uuid)) : null,
    secret_masked: input.secret ? maskSecret(input.secret)! : null,
    disabled: toDbBool(input.disabled)!,
    disabled_reason: null,
    filter: toJson(input.filter ?? {})!,
    backoff_sec: input.backoffSec ?? null,
    last_fired_at_ms: null,
    since_change_id: await latestChangeEventId(w.tx),
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.insertEndpoint(w.tx, row);
  const endpoint = toEndpoint(row);
  w.change({ entity: ENDPOINT_ENTITY, entityUuid: uuid, type: 'CREATE', update: endpointRecord(endpoint) });
  return endpoint;
}

/** Changes an endpoint's state or secret inside a write and announces it. */
export async function changeEndpoint(
  deps: Pick<Deps, 'secrets'>,
  w: WriteScope,
  e: Endpoint,
  change: { disabled?: boolean; disabledReason?: string | null; secret?: string },
): Promise<Endpoint> {
  const disabled = change.disabled ?? e.disabled;
  const enabling = e.disabled && !disabled;
  const set = {
    disabled: toDbBool(disabled)!,
    ...(enabling ? { since_change_id: await latestChangeEventId(w.tx) } : {}),
    disabled_reason: disabled ? (change.disabledReason ?? e.disabledReason) : null,
    updated_at_ms: w.nowMs,
    ...(change.secret !== undefined
      ? { secret: deps.secrets.seal(change.secret, secretIdentity(e.orgUuid, e.uuid)), secret_masked: maskSecret(change.secret)! }
      : {}),
  };
  await store.updateEndpoint(w.tx, e.orgUuid, e.uuid, set);
  const updated: Endpoint = {
    ...e,
    disabled,
    disabledReason: set.disabled_reason,
    sinceChangeId: set.since_change_id ?? e.sinceChangeId,
    updatedAtMs: w.nowMs,
    ...(set.secret !== undefined ? { sealedSecret: set.secret, secretMasked: set.secret_masked! } : {}),
  };
  w.change({ entity: ENDPOINT_ENTITY, entityUuid: e.uuid, type: 'UPDATE', update: endpointRecord(updated) });
  return updated;
}

export async function removeEndpoint(w: WriteScope, e: Endpoint): Promise<void> {
  if (await store.deleteEndpoint(w.tx, e.orgUuid, e.uuid)) w.change({ entity: ENDPOINT_ENTITY, entityUuid: e.uuid, type: 'DELETE', update: endpointRecord(e) });
}

/** Disables an endpoint whose receiver answered 410 Gone; announced on the stream. False when it was gone or off already. */
export async function disableGoneEndpoint(deps: IntegrationDeps, orgUuid: string, uuid: string, operation: string): Promise<boolean> {
  return write(deps, { orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation }, async (w) => {
    const e = await findOrgEndpoint(w, orgUuid, uuid);
    if (!e || e.disabled) return false;
    await changeEndpoint(deps, w, e, { disabled: true, disabledReason: 'GONE: the receiver answered 410' });
    return true;
  });
}

export const generatedSecret = newSigningSecret;

/** Finds the endpoint of a purpose and URL, if the organization has one. */
export async function findEndpointOf(source: ReadSource, orgUuid: string, purpose: EndpointPurpose, url: string): Promise<Endpoint | null> {
  const row = await store.findEndpointByKey(dbOf(source), orgUuid, `${purpose}:${url}`);
  return row ? toEndpoint(row) : null;
}
