import type { Static } from 'typebox';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { randomToken } from '../../../ids.js';
import { orgRecords } from '../../../records/org-records.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { changeOrg } from '../settings/service.js';
import { ownedRecords } from '../owned-records.js';
import type { RhombusKeyAppSettings, SamlSettings } from './schemas.js';
import * as store from '../store.js';

/*
 * Single sign-on settings: SAML registrations and SCIM provisioning. Gatehouse signs no one in and serves no
 * SCIM endpoint, so these are records kept and answered (docs/org-structure.md). What they do act on: a SAML
 * team name is the organization's team name (unique across organizations), and the SCIM token is a secret,
 * sealed at rest and answered once, when it is set up.
 */

type SsoDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export type SamlSettingsRecord = Omit<Static<typeof SamlSettings>, 'registrationUuid' | 'orgUuid'> & {
  uuid: string;
  orgUuid: string;
  registrationUuid: string;
};

/** SAML metadata is XML with an EntityDescriptor: anything else would never sign anyone in. */
function checkSaml(_w: WriteScope, r: SamlSettingsRecord): SamlSettingsRecord {
  const xml = r.idpMetaDataXml?.trim();
  if (xml && !(xml.startsWith('<') && /EntityDescriptor/.test(xml)))
    throw fail('INVALID_VALUE', "idpMetaDataXml: must be the identity provider's SAML metadata (an XML EntityDescriptor)");
  return { ...r, registrationUuid: r.uuid };
}

const saml = orgRecords({ entity: 'SAML_SETTINGS', label: 'SAML registration', nameOf: (r) => r.domain ?? null, check: checkSaml });

export async function listSaml(source: ReadSource, orgUuid: string): Promise<SamlSettingsRecord[]> {
  return saml.list(source, orgUuid);
}

type SamlInput = Static<typeof SamlSettings>;

/** Writes one registration: the one it names, else a new one; its team name becomes the organization's. */
async function putSaml(w: WriteScope, input: SamlInput): Promise<SamlSettingsRecord> {
  if (input.teamName) await changeOrg(w, { teamName: input.teamName });
  const { registrationUuid, orgUuid: _given, ...fields } = input;
  const values = { ...fields, teamName: input.teamName?.trim().toLowerCase() ?? null };
  if (registrationUuid) return saml.put(w, registrationUuid, values);
  return saml.insert(w, { ...values, orgUuid: w.actor.orgUuid, registrationUuid: '' });
}

/** updateSAMLSettings: the registration it names, or the organization's first, or a new one. */
export async function updateSaml(deps: SsoDeps, ctx: CallerContext, input: SamlInput): Promise<void> {
  await write(deps, ctx, async (w) => {
    const first = (await saml.list(w, ctx.orgUuid))[0];
    await putSaml(w, { ...input, registrationUuid: input.registrationUuid ?? first?.uuid ?? null });
  });
}

/** updateSAMLSettingsV2: the list becomes the organization's registrations (those left out are deleted). */
export async function replaceSaml(deps: SsoDeps, ctx: CallerContext, inputs: SamlInput[]): Promise<void> {
  await write(deps, ctx, async (w) => {
    const kept = new Set(inputs.map((i) => i.registrationUuid).filter(Boolean));
    for (const old of await saml.list(w, ctx.orgUuid)) if (!kept.has(old.uuid)) await saml.delete(w, old.uuid);
    for (const input of inputs) await putSaml(w, input);
  });
}

export type RhombusKeyApp = Static<typeof RhombusKeyAppSettings>;

export interface ScimSettingsRecord {
  uuid: string;
  orgUuid: string;
  addUsersOnRoleMismatch: boolean;
  forceRolesStrictSchemaFormat: boolean;
  rolesFormat: 'LIST_OF_STRINGS' | 'LIST_OF_MULTI_VALUED_ATTRIBUTES';
  /** Left out until set (the catalogue's record is not nullable). */
  rhombusKeyAppSettings?: RhombusKeyApp;
  sendWelcomeEmailToNewRhombusKeyUsers: boolean;
  sendWelcomeEmailToNewUsers: boolean;
  createdAtMillis: number;
  updatedAtMillis: number;
}

const scim = ownedRecords(
  orgRecords({
    entity: 'SCIM_SETTINGS',
    label: 'SCIM settings',
    ownerOf: (r) => r.orgUuid,
    stamp: (r, t) => ({ ...r, createdAtMillis: t.createdAtMs, updatedAtMillis: t.updatedAtMs }),
  }),
);

export interface ScimInput {
  addUsersOnRoleMismatch?: boolean | null;
  rhombusKeyAppSettings?: RhombusKeyApp | null;
  sendWelcomeEmailToNewRhombusKeyUsers?: boolean | null;
  sendWelcomeEmailToNewUsers?: boolean | null;
}

const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
const scimPatch = (input: ScimInput): Partial<ScimSettingsRecord> => ({
  addUsersOnRoleMismatch: given(input.addUsersOnRoleMismatch),
  rhombusKeyAppSettings: given(input.rhombusKeyAppSettings),
  sendWelcomeEmailToNewRhombusKeyUsers: given(input.sendWelcomeEmailToNewRhombusKeyUsers),
  sendWelcomeEmailToNewUsers: given(input.sendWelcomeEmailToNewUsers),
});

function scimDefaults(orgUuid: string): Omit<ScimSettingsRecord, 'uuid'> {
  return {
    orgUuid,
    addUsersOnRoleMismatch: false,
    forceRolesStrictSchemaFormat: false,
    rolesFormat: 'LIST_OF_STRINGS',
    sendWelcomeEmailToNewRhombusKeyUsers: false,
    sendWelcomeEmailToNewUsers: false,
    createdAtMillis: 0,
    updatedAtMillis: 0,
  };
}

export async function findScim(source: ReadSource, orgUuid: string): Promise<ScimSettingsRecord | null> {
  return scim.find(source, orgUuid, orgUuid);
}

const scimIdentity = (orgUuid: string) => `scim-token:${orgUuid}`;

/**
 * setupSCIMAccessForOrg: creates the SCIM settings and a token, answered this once and kept sealed. An
 * organization that has SCIM access already answers `scimAccessAlreadySetupFailure` and keeps its token.
 */
export async function setupScim(deps: SsoDeps & Pick<Deps, 'secrets'>, ctx: CallerContext, input: ScimInput) {
  return write(deps, ctx, async (w) => {
    const org = await store.findOrg(w.tx, ctx.orgUuid);
    if (org?.scim_token_sealed) return { scimAccessAlreadySetupFailure: true, token: null };
    const token = randomToken(256);
    await store.updateOrg(w.tx, ctx.orgUuid, { scim_token_sealed: deps.secrets.seal(token, scimIdentity(ctx.orgUuid)) });
    w.audit({ entity: 'SCIM_TOKEN', entityUuid: ctx.orgUuid, action: 'CREATE' });
    await scim.upsert(w, ctx.orgUuid, () => scimDefaults(ctx.orgUuid), scimPatch(input));
    return { scimAccessAlreadySetupFailure: false, token };
  });
}

/** updateSCIMSettingsForOrg: changes the settings of an organization that has SCIM access set up. */
export async function updateScim(deps: SsoDeps, ctx: CallerContext, input: ScimInput): Promise<void> {
  await write(deps, ctx, async (w) => {
    const existing = await scim.find(w, ctx.orgUuid, ctx.orgUuid);
    if (!existing) throw fail('NOT_FOUND', 'SCIM settings (set SCIM access up first)');
    await scim.upsert(w, ctx.orgUuid, () => scimDefaults(ctx.orgUuid), scimPatch(input));
  });
}

/** revokeSCIMAccessForOrg: the token stops existing and the settings go with it. */
export async function revokeScim(deps: SsoDeps, ctx: CallerContext): Promise<void> {
  await write(deps, ctx, async (w) => {
    const org = await store.findOrg(w.tx, ctx.orgUuid);
    if (!org?.scim_token_sealed) throw fail('NOT_FOUND', 'SCIM access');
    await store.updateOrg(w.tx, ctx.orgUuid, { scim_token_sealed: null });
    w.audit({ entity: 'SCIM_TOKEN', entityUuid: ctx.orgUuid, action: 'DELETE' });
    await scim.remove(w, ctx.orgUuid);
  });
}

/**
 * getScimDisplayInfo: the SCIM base URLs a client shows an identity provider's administrator, once the
 * organization has SCIM access set up (null before, and after it is revoked); Azure's carries Microsoft's
 * SCIM-compliance flag. Gatehouse serves no SCIM endpoint there (see the top of this file).
 */
export async function scimDisplayInfo(source: ReadSource, orgUuid: string, base: string) {
  const org = await store.findOrg(dbOf(source), orgUuid);
  if (!org?.scim_token_sealed) return { scimEndpointUrl: null, azureScimEndpointUrl: null };
  return { scimEndpointUrl: `${base}/scim/v2`, azureScimEndpointUrl: `${base}/scim/v2?aadOptscim062020` };
}
