import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { normaliseEmail } from '../users/emails.js';
import { ownedRecords } from '../owned-records.js';
import { orgLogos, type OrgLogos } from '../uploads/service.js';
import * as store from '../store.js';
import type { OrgsTable } from '../tables.js';
import * as users from '../users/store.js';

export interface FirmwareUpdateSettings {
  mode: 'MANUAL' | 'SCHEDULED';
  intervalsV2: Array<{ minuteOfWeekStart: number; minuteOfWeekStop: number }>;
}

/**
 * An organization's settings, one record per organization. Gatehouse keeps and answers them; of them only
 * `accountOwnerEmail` acts on anything else (it names the account owner among the users). Sign-in (MFA,
 * inactivity), firmware updates, AI training, audio and LLM policies are settings of services that
 * Gatehouse does not run: stored and answered, as docs/org-structure.md says.
 */
export interface OrgSettingsRecord {
  uuid: string;
  orgUuid: string;
  address1: string | null;
  address2: string | null;
  postalCode: string | null;
  countryCode: string | null;
  accountOwnerEmail: string | null;
  accountBillingContactEmail: string | null;
  accountTechnicalContactEmail: string | null;
  accountTechnicalContacts: string[];
  defaultPlayerViewLiveType: 'REALTIME' | 'BUFFERED' | null;
  /** Minutes of inactivity before a console session ends. */
  inactivityTimeout: number | null;
  uapSettings: { enabled: boolean; text: string | null } | null;
  itemizedInvoice: boolean;
  mfaEnabled: boolean;
  v3AuthNumDaysSkip2FAForTrustedDevices: number | null;
  firmwareUpdateSettings: FirmwareUpdateSettings | null;
  firmwareUpdateSettingsOverrides: Array<{ deviceTypes: string[]; firmwareUpdateSettings: FirmwareUpdateSettings }>;
  shareAiTrainingMediaWithRhombus: boolean;
  audioAnalysisEnabled: boolean;
  audioRecordingEnabled: boolean;
  llmUsageEnabled: boolean;
  updatedAtMillis: number;
}

/** The organization as the org operations answer it: its row, its team name, its type and its settings. */
export type OrgView = Omit<OrgSettingsRecord, 'uuid' | 'orgUuid'> & {
  uuid: string;
  name: string;
  teamName: string | null;
  type: 'PARTNER' | 'CUSTOMER';
  createdAtMillis: number;
  deleted: boolean;
} & OrgLogos;

export type OrgSettingsPatch = Partial<Omit<OrgSettingsRecord, 'uuid' | 'orgUuid' | 'updatedAtMillis'>>;

const INTERVAL_LIMIT = 10_080;

function checkFirmware(settings: FirmwareUpdateSettings | null, field: string): void {
  for (const [i, interval] of (settings?.intervalsV2 ?? []).entries()) {
    const { minuteOfWeekStart: start, minuteOfWeekStop: stop } = interval;
    if (!(start >= 0 && stop <= INTERVAL_LIMIT && start < stop))
      throw fail('INVALID_VALUE', `${field}.intervalsV2[${i}]: minuteOfWeekStart must be before minuteOfWeekStop, within 0..${INTERVAL_LIMIT}`);
  }
}

/** Normalises the e-mail addresses and checks the values: the account owner must be a user of the organization. */
async function checkSettings(w: WriteScope, r: OrgSettingsRecord): Promise<OrgSettingsRecord> {
  const email = (v: string | null) => (v ? normaliseEmail(v) : null);
  const owner = email(r.accountOwnerEmail);
  if (owner && !(await users.findUserByEmail(w.tx, w.actor.orgUuid, owner)))
    throw fail('NOT_FOUND', `accountOwnerEmail: user with e-mail ${owner} of the organization`);
  checkFirmware(r.firmwareUpdateSettings, 'firmwareUpdateSettings');
  r.firmwareUpdateSettingsOverrides.forEach((o, i) => checkFirmware(o.firmwareUpdateSettings, `firmwareUpdateSettingsOverrides[${i}].firmwareUpdateSettings`));
  return {
    ...r,
    accountOwnerEmail: owner,
    accountBillingContactEmail: email(r.accountBillingContactEmail),
    accountTechnicalContactEmail: email(r.accountTechnicalContactEmail),
    accountTechnicalContacts: [...new Set(r.accountTechnicalContacts.map(normaliseEmail))],
  };
}

const settingsRecords = orgRecords({
  entity: 'ORG_SETTINGS',
  label: 'Organization settings',
  ownerOf: (r) => r.orgUuid,
  check: checkSettings,
  stamp: (r, t) => ({ ...r, updatedAtMillis: t.updatedAtMs }),
});
const settings = ownedRecords(settingsRecords);

function defaults(orgUuid: string): Omit<OrgSettingsRecord, 'uuid'> {
  return {
    orgUuid,
    address1: null,
    address2: null,
    postalCode: null,
    countryCode: null,
    accountOwnerEmail: null,
    accountBillingContactEmail: null,
    accountTechnicalContactEmail: null,
    accountTechnicalContacts: [],
    defaultPlayerViewLiveType: null,
    inactivityTimeout: null,
    uapSettings: null,
    itemizedInvoice: false,
    mfaEnabled: false,
    v3AuthNumDaysSkip2FAForTrustedDevices: null,
    firmwareUpdateSettings: null,
    firmwareUpdateSettingsOverrides: [],
    shareAiTrainingMediaWithRhombus: false,
    audioAnalysisEnabled: false,
    audioRecordingEnabled: false,
    llmUsageEnabled: false,
    updatedAtMillis: 0,
  };
}

/** The organization's settings (the defaults while none were set). */
export async function orgSettings(source: ReadSource, orgUuid: string): Promise<Omit<OrgSettingsRecord, 'uuid'>> {
  return (await settings.find(source, orgUuid, orgUuid)) ?? defaults(orgUuid);
}

async function orgRow(source: ReadSource, orgUuid: string): Promise<OrgsTable> {
  const row = await store.findOrg(dbOf(source), orgUuid);
  if (!row) throw fail('NOT_FOUND', `Organization ${orgUuid}`);
  return row;
}

/** The organization as the org operations answer it. */
export async function orgView(source: ReadSource, orgUuid: string, mediaBase = ''): Promise<OrgView> {
  const [row, settings, partner, logos] = await Promise.all([
    orgRow(source, orgUuid),
    orgSettings(source, orgUuid),
    store.isPartnerOrg(dbOf(source), orgUuid),
    orgLogos(source, orgUuid, mediaBase),
  ]);
  // Every field named, in one literal: one hidden class for every answer (a spread of the settings followed by
  // more fields made a new one per call on Node.js 20, and the serializer paid for it; docs/performance.md).
  return {
    address1: settings.address1,
    address2: settings.address2,
    postalCode: settings.postalCode,
    countryCode: settings.countryCode,
    accountOwnerEmail: settings.accountOwnerEmail,
    accountBillingContactEmail: settings.accountBillingContactEmail,
    accountTechnicalContactEmail: settings.accountTechnicalContactEmail,
    accountTechnicalContacts: settings.accountTechnicalContacts,
    // Never null: the catalogue does not mark it nullable (REALTIME until the organization sets it).
    defaultPlayerViewLiveType: settings.defaultPlayerViewLiveType ?? 'REALTIME',
    inactivityTimeout: settings.inactivityTimeout,
    uapSettings: settings.uapSettings,
    itemizedInvoice: settings.itemizedInvoice,
    mfaEnabled: settings.mfaEnabled,
    v3AuthNumDaysSkip2FAForTrustedDevices: settings.v3AuthNumDaysSkip2FAForTrustedDevices,
    firmwareUpdateSettings: settings.firmwareUpdateSettings,
    firmwareUpdateSettingsOverrides: settings.firmwareUpdateSettingsOverrides,
    shareAiTrainingMediaWithRhombus: settings.shareAiTrainingMediaWithRhombus,
    audioAnalysisEnabled: settings.audioAnalysisEnabled,
    audioRecordingEnabled: settings.audioRecordingEnabled,
    llmUsageEnabled: settings.llmUsageEnabled,
    updatedAtMillis: settings.updatedAtMillis,
    uuid: row.uuid,
    name: row.name,
    teamName: row.team_name ?? null,
    type: partner ? 'PARTNER' : 'CUSTOMER',
    createdAtMillis: row.created_at_ms,
    deleted: false,
    companyLogoUuid: logos.companyLogoUuid,
    companyLogoUrl: logos.companyLogoUrl,
    keypadLogoUuid: logos.keypadLogoUuid,
    keypadLogoUrl: logos.keypadLogoUrl,
    rhombusKeyLogoUuid: logos.rhombusKeyLogoUuid,
    rhombusKeyLogoUrl: logos.rhombusKeyLogoUrl,
  };
}

const TEAM_NAME = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?$/;

/** A team name as stored: trimmed and lowercase, 3 to 63 letters, digits and inner hyphens. */
export function normaliseTeamName(teamName: string): string {
  const t = teamName.trim().toLowerCase();
  if (t.length < 3 || !TEAM_NAME.test(t)) throw fail('INVALID_VALUE', `teamName: "${teamName}" must be 3 to 63 letters, digits and inner hyphens`);
  return t;
}

/** Whether no organization (other than `exceptOrgUuid`) has this team name. */
export async function teamNameAvailable(source: ReadSource, teamName: string, exceptOrgUuid?: string): Promise<boolean> {
  const holder = await store.findOrgByTeamName(dbOf(source), normaliseTeamName(teamName));
  return !holder || holder.uuid === exceptOrgUuid;
}

export interface OrgChange {
  name?: string | null;
  teamName?: string | null;
  settings?: OrgSettingsPatch;
}

/**
 * Changes the organization in the write: its name and team name (unique across organizations; a taken one
 * is CONFLICT and nothing changes) and the given settings. Announces ORG_SETTINGS, and ORG when the name or
 * team name changed.
 */
export async function changeOrg(w: WriteScope, change: OrgChange): Promise<OrgView> {
  const orgUuid = w.actor.orgUuid;
  const row = await orgRow(w, orgUuid);
  const name = change.name?.trim();
  if (change.name != null && !name) throw fail('INVALID_VALUE', 'name: must not be empty');
  const teamName = change.teamName != null ? normaliseTeamName(change.teamName) : undefined;
  if (teamName && !(await teamNameAvailable(w, teamName, orgUuid))) throw fail('CONFLICT', `teamName: "${teamName}" is taken by another organization`);
  const renamed = (name !== undefined && name !== row.name) || (teamName !== undefined && teamName !== row.team_name);
  if (renamed) await store.updateOrg(w.tx, orgUuid, { name: name ?? row.name, team_name: teamName ?? row.team_name ?? null });
  if (change.settings && Object.values(change.settings).some((v) => v !== undefined)) {
    await settings.upsert(w, orgUuid, () => defaults(orgUuid), change.settings);
  }
  const view = await orgView(w, orgUuid);
  if (renamed) w.change({ entity: 'ORG', entityUuid: orgUuid, type: 'UPDATE', update: view });
  return view;
}

export async function updateOrg(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, change: OrgChange): Promise<OrgView> {
  return write(deps, ctx, (w) => changeOrg(w, change));
}

type OrgDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface UpdateOrgInput {
  name?: string | null;
  teamName?: string | null;
  address1?: string | null;
  address2?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
  accountOwnerEmail?: string | null;
  mfaEnabled?: boolean | null;
  itemizedInvoice?: boolean | null;
  firmwareUpdateSettings?: FirmwareUpdateSettings | null;
  uapSettings?: { enabled: boolean; text?: string | null } | null;
}

const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/**
 * updateOrg: a team name another organization holds is answered as the platform does
 * (`teamNameUniquenessConstraintFailure`), and nothing changes.
 */
export async function updateOrgRecord(deps: OrgDeps, ctx: CallerContext, org: UpdateOrgInput) {
  if (org.teamName && !(await teamNameAvailable(deps, org.teamName, ctx.orgUuid))) return { teamNameUniquenessConstraintFailure: true };
  await updateOrg(deps, ctx, {
    name: org.name,
    teamName: org.teamName,
    settings: {
      address1: given(org.address1),
      address2: given(org.address2),
      postalCode: given(org.postalCode),
      countryCode: given(org.countryCode?.toUpperCase()),
      accountOwnerEmail: given(org.accountOwnerEmail),
      mfaEnabled: given(org.mfaEnabled),
      itemizedInvoice: given(org.itemizedInvoice),
      firmwareUpdateSettings: given(org.firmwareUpdateSettings),
      uapSettings: org.uapSettings ? { enabled: org.uapSettings.enabled, text: org.uapSettings.text ?? null } : undefined,
    },
  });
  return { teamNameUniquenessConstraintFailure: false, teamNameNotAssignedFailure: false, samlEntityIdUniquenessConstraintFailure: false };
}

/** The settings fields an operation's input gives (null and absent: left as they are). */
export function givenSettings<K extends keyof OrgSettingsPatch>(input: Partial<Record<K, OrgSettingsPatch[K] | null>>, fields: readonly K[]): OrgSettingsPatch {
  return Object.fromEntries(fields.map((f) => [f, given(input[f])])) as OrgSettingsPatch;
}

export async function findIfTeamNameAvailable(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { teamName: string }): Promise<boolean> {
  return teamNameAvailable(deps, input.teamName, ctx.orgUuid);
}

/** Changes the given settings (a patch of the settings record); answers the organization. */
export async function updateSettings(deps: OrgDeps, ctx: CallerContext, patch: OrgSettingsPatch): Promise<OrgView> {
  return updateOrg(deps, ctx, { settings: patch });
}

export interface GeneralSettingsInput {
  name?: string | null;
  accountOwnerEmail?: string | null;
  accountBillingContactEmail?: string | null;
  accountTechnicalContactEmail?: string | null;
  accountTechnicalContacts?: string[] | null;
  defaultPlayerViewLiveType?: 'REALTIME' | 'BUFFERED' | null;
  inactivityTimeout?: number | null;
  uapSettings?: { enabled: boolean; text?: string | null } | null;
}

export async function updateGeneralSettings(deps: OrgDeps, ctx: CallerContext, input: GeneralSettingsInput): Promise<OrgView> {
  const fields = [
    'accountOwnerEmail',
    'accountBillingContactEmail',
    'accountTechnicalContactEmail',
    'accountTechnicalContacts',
    'defaultPlayerViewLiveType',
    'inactivityTimeout',
  ] as const;
  const uap = input.uapSettings ? { uapSettings: { enabled: input.uapSettings.enabled, text: input.uapSettings.text ?? null } } : {};
  return updateOrg(deps, ctx, { name: input.name, settings: { ...givenSettings(input, fields), ...uap } });
}

export async function updateFirmwareSettings(
  deps: OrgDeps,
  ctx: CallerContext,
  input: {
    firmwareSettings?: FirmwareUpdateSettings | null;
    firmwareUpdateSettings?: FirmwareUpdateSettings | null;
    firmwareUpdateSettingsOverrides?: OrgSettingsRecord['firmwareUpdateSettingsOverrides'] | null;
  },
): Promise<OrgView> {
  return updateSettings(deps, ctx, {
    firmwareUpdateSettings: given(input.firmwareUpdateSettings ?? input.firmwareSettings),
    firmwareUpdateSettingsOverrides: given(input.firmwareUpdateSettingsOverrides),
  });
}
