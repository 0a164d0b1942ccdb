import type { CallerContext } from '../../../context.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import * as store from '../store.js';

/** The partner organization a partner call acts for: itself, or the partner behind a client's `x-auth-org`. */
export function partnerOf(ctx: Pick<CallerContext, 'partnerOrgUuid' | 'orgUuid'>): string {
  return ctx.partnerOrgUuid ?? ctx.orgUuid;
}

/** The caller acting in its partner organization (whose partner groups, users and keys a partner call manages). */
export function asPartner<C extends CallerContext>(ctx: C): C {
  return { ...ctx, orgUuid: partnerOf(ctx) };
}

/** Whether the partner organization has a grant for the client organization. */
export async function isClientOf(source: ReadSource, partnerOrgUuid: string, clientOrgUuid: string): Promise<boolean> {
  return store.hasPartnerGrant(dbOf(source), partnerOrgUuid, clientOrgUuid);
}
