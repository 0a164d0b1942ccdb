import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid, randomToken } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import * as store from './store.js';
import type { OAuthApplicationsTable } from './tables.js';

/*
 * An organization's OAuth applications: a name, a contact and the one redirect URI its authorization answers
 * go to. The client secret is made here, answered once by submitApplication and kept sealed (deps.secrets),
 * bound to its client id; the token endpoint opens it to check a client (flow.service.ts).
 */

type AppDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;

export interface OAuthApplicationRecord {
  clientId: string;
  orgUuid: string;
  name: string;
  description: string | null;
  contactEmail: string | null;
  redirectUri: string;
}

export const secretIdentity = (clientId: string) => `oauth-client-secret:${clientId}`;

export function toApplicationRecord(row: OAuthApplicationsTable): OAuthApplicationRecord {
  return { clientId: row.client_id, orgUuid: row.org_uuid, name: row.name, description: null, contactEmail: row.contact_email, redirectUri: row.redirect_uri };
}

interface ApplicationInput {
  clientId?: string | null;
  name?: string | null;
  contactEmail?: string | null;
  redirectUri?: string | null;
}

function requiredText(value: string | null | undefined, field: string): string {
  const text = value?.trim();
  if (!text) throw fail('INVALID_VALUE', `${field} is required`);
  return text;
}

/** submitApplication: a new application and its client secret, answered this once. */
export async function submitApplication(deps: AppDeps, ctx: CallerContext, input: ApplicationInput): Promise<{ clientId: string; clientSecret: string }> {
  const name = requiredText(input.name, 'name');
  const redirectUri = requiredText(input.redirectUri, 'redirectUri');
  const clientId = newRuuid();
  const clientSecret = randomToken(256);
  await write(deps, ctx, async (w) => {
    const row: OAuthApplicationsTable = {
      client_id: clientId,
      org_uuid: ctx.orgUuid,
      name,
      contact_email: input.contactEmail?.trim() || null,
      redirect_uri: redirectUri,
      client_secret_sealed: deps.secrets.seal(clientSecret, secretIdentity(clientId)),
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertApplication(w.tx, row);
    w.change({ entity: 'OAUTH_APPLICATION', entityUuid: clientId, type: 'CREATE', update: toApplicationRecord(row) });
  });
  return { clientId, clientSecret };
}

async function orgApplication(source: ReadSource, orgUuid: string, clientId: string | null | undefined): Promise<OAuthApplicationsTable> {
  if (!clientId) throw fail('INVALID_VALUE', 'clientId is required');
  const row = await store.findOrgApplication(dbOf(source), orgUuid, clientId);
  if (!row) throw fail('NOT_FOUND', `OAuth application ${clientId}`);
  return row;
}

export async function getApplication(deps: Pick<Deps, 'store'>, ctx: CallerContext, clientId: string): Promise<OAuthApplicationRecord> {
  return toApplicationRecord(await orgApplication(deps, ctx.orgUuid, clientId));
}

export async function listApplications(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<OAuthApplicationRecord[]> {
  return (await store.listOrgApplications(deps.store.db, ctx.orgUuid)).map(toApplicationRecord);
}

/** updateApplication: the fields given change (a name or redirect URI cannot be emptied); the secret stays. */
export async function updateApplication(deps: AppDeps, ctx: CallerContext, input: ApplicationInput): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await orgApplication(w, ctx.orgUuid, input.clientId);
    const next: OAuthApplicationsTable = {
      ...row,
      name: input.name === undefined || input.name === null ? row.name : requiredText(input.name, 'name'),
      redirect_uri: input.redirectUri === undefined || input.redirectUri === null ? row.redirect_uri : requiredText(input.redirectUri, 'redirectUri'),
      contact_email: input.contactEmail === undefined ? row.contact_email : input.contactEmail?.trim() || null,
      updated_at_ms: w.nowMs,
    };
    await store.updateApplication(w.tx, row.client_id, {
      name: next.name,
      redirect_uri: next.redirect_uri,
      contact_email: next.contact_email,
      updated_at_ms: next.updated_at_ms,
    });
    w.change({ entity: 'OAUTH_APPLICATION', entityUuid: row.client_id, type: 'UPDATE', update: toApplicationRecord(next) });
  });
}

/** deleteApplication: the application goes, and with it every code and token it was given (they stop at once). */
export async function deleteApplication(deps: AppDeps, ctx: CallerContext, clientId: string | null | undefined): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await orgApplication(w, ctx.orgUuid, clientId);
    await store.deleteApplication(w.tx, row.client_id);
    w.change({ entity: 'OAUTH_APPLICATION', entityUuid: row.client_id, type: 'DELETE', update: toApplicationRecord(row) });
  });
}
