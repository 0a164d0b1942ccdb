import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { clientGroupOf, limitingPartnerGroup } from '../permissions/partner-rights.js';
import * as store from '../store.js';
import { normaliseEmail } from '../users/emails.js';
import { isClientOf, partnerOf } from './grants.js';

type PartnerDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** Whether the caller's partner permission group reaches the client (a key without a limiting group reaches every client). */
async function groupReaches(source: ReadSource, ctx: CallerContext, clientOrgUuid: string): Promise<boolean> {
  const group = ctx.keyKind === 'partner' ? await limitingPartnerGroup(source, ctx.userUuid) : null;
  return !group || !('denied' in (await clientGroupOf(source, group, clientOrgUuid)));
}

/** The partner's clients that the caller's partner permission group reaches, oldest grant first. */
export async function reachableClients(source: ReadSource, ctx: CallerContext) {
  const clients = [];
  for (const c of await store.listPartnerClients(dbOf(source), partnerOf(ctx))) if (await groupReaches(source, ctx, c.uuid)) clients.push(c);
  return clients;
}

/**
 * The client organization a partner call names: one the partner has a grant for and the caller's partner
 * permission group reaches, else NOT_FOUND (as an unknown one).
 */
export async function clientOf(source: ReadSource, ctx: CallerContext, clientOrgUuid: string): Promise<CallerContext> {
  if (!(await isClientOf(source, partnerOf(ctx), clientOrgUuid)) || !(await groupReaches(source, ctx, clientOrgUuid)))
    throw fail('NOT_FOUND', `Client ${clientOrgUuid}`);
  return { ...ctx, orgUuid: clientOrgUuid, partnerOrgUuid: partnerOf(ctx) };
}

/**
 * Creates a client organization with its first user (the contact, a full administrator) and grants it to
 * the partner, in one transaction. A partner may not have two clients of the same name.
 */
export async function createClient(
  deps: PartnerDeps,
  ctx: CallerContext,
  input: { clientOrgName: string; clientContactName?: string | null; clientContactEmail?: string | null },
): Promise<{ clientOrgUuid: string }> {
  const partner = partnerOf(ctx);
  const name = input.clientOrgName.trim();
  if (!name) throw fail('INVALID_VALUE', 'clientOrgName: must not be empty');
  const email = input.clientContactEmail ? normaliseEmail(input.clientContactEmail) : null;
  const clientOrgUuid = newRuuid();
  const userUuid = newRuuid();
  await write(deps, ctx, async (w) => {
    if ((await store.listPartnerClients(w.tx, partner)).some((c) => c.name === name))
      throw fail('CONFLICT', `The partner already has a client named "${name}"`);
    await store.insertOrg(w.tx, { uuid: clientOrgUuid, name, created_at_ms: w.nowMs });
    await store.insertUser(w.tx, {
      uuid: userUuid,
      org_uuid: clientOrgUuid,
      name: input.clientContactName?.trim() || `${name} Administrator`,
      email,
      created_at_ms: w.nowMs,
    });
    await store.insertPartnerGrant(w.tx, partner, clientOrgUuid, w.nowMs);
    w.audit({ entity: 'ORG', entityUuid: clientOrgUuid, action: 'CREATE', orgUuid: clientOrgUuid });
    w.audit({ entity: 'USER', entityUuid: userUuid, action: 'CREATE', orgUuid: clientOrgUuid });
    w.audit({ entity: 'PARTNER_GRANT', entityUuid: partner, action: 'CREATE', orgUuid: clientOrgUuid });
  });
  return { clientOrgUuid };
}

/**
 * Withdraws the partner's grant for a client: its partner keys stop working there at once (every call
 * checks the grant) and its stream sessions in the client organization close (`partner.revoked`).
 * The client organization itself stays, with its own users and keys.
 */
export async function withdrawClient(deps: PartnerDeps, ctx: CallerContext, input: { clientOrgUuid: string }): Promise<void> {
  const partner = partnerOf(ctx);
  await write(deps, ctx, async (w) => {
    if (!(await store.deletePartnerGrant(w.tx, partner, input.clientOrgUuid))) throw fail('NOT_FOUND', `Client ${input.clientOrgUuid}`);
    w.audit({ entity: 'PARTNER_GRANT', entityUuid: partner, action: 'DELETE', orgUuid: input.clientOrgUuid });
  });
  await deps.bus.publish('partner.revoked', { partnerOrgUuid: partner, clientOrgUuid: input.clientOrgUuid }).catch(() => {});
}
