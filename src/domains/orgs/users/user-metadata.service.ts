import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { normaliseEmail } from './emails.js';
import * as store from '../store.js';

export const VALUE_TYPES = ['TEXT', 'NUMBER', 'BOOLEAN', 'DATE', 'EMAIL'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];
export const MAX_VALUE_LENGTH = 1000;

/**
 * A custom field of the organization's users (the reference's user metadata field template). `valueType`,
 * `allowedValues` and `maxLength` are Gatehouse's own: every value saved is checked against them.
 */
export interface UserMetadataTemplateRecord {
  uuid: string;
  orgUuid: string;
  fieldName: string;
  scimFieldName: string | null;
  valueType: ValueType;
  allowedValues: string[] | null;
  maxLength: number;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** A user's value of a custom field. */
export interface UserMetadataFieldRecord {
  uuid: string;
  orgUuid: string;
  userUuid: string;
  templateUuid: string;
  fieldValue: string;
  createdAtMillis: number;
  updatedAtMillis: number;
}

const stamp = <R extends { createdAtMillis: number; updatedAtMillis: number }>(r: R, t: { createdAtMs: number; updatedAtMs: number }): R => ({
  ...r,
  createdAtMillis: t.createdAtMs,
  updatedAtMillis: t.updatedAtMs,
});

/** A value as its template keeps it, or INVALID_VALUE naming the field and what it expects. */
export function checkValue(template: UserMetadataTemplateRecord, value: string): string {
  const bad = (why: string) => fail('INVALID_VALUE', `${template.fieldName}: "${value.slice(0, 40)}" ${why}`);
  const v = value.trim();
  if (v.length > template.maxLength) throw bad(`is longer than ${template.maxLength} characters`);
  if (template.allowedValues && !template.allowedValues.includes(v)) throw bad(`is not one of ${template.allowedValues.join(', ')}`);
  switch (template.valueType) {
    case 'NUMBER':
      if (v === '' || !Number.isFinite(Number(v))) throw bad('is not a number');
      return String(Number(v));
    case 'BOOLEAN':
      if (!/^(true|false)$/i.test(v)) throw bad('is not true or false');
      return v.toLowerCase();
    case 'DATE':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v)
        throw bad('is not a date (YYYY-MM-DD)');
      return v;
    case 'EMAIL':
      try {
        return normaliseEmail(v);
      } catch {
        throw bad('is not an e-mail address');
      }
    default:
      return v;
  }
}

const fields = orgRecords({
  entity: 'USER_METADATA_FIELD',
  label: 'User metadata field',
  nameOf: (f) => f.templateUuid,
  ownerOf: (f) => f.userUuid,
  stamp,
});

async function checkTemplate(w: WriteScope, t: UserMetadataTemplateRecord, previous: UserMetadataTemplateRecord | null): Promise<UserMetadataTemplateRecord> {
  const fieldName = t.fieldName.trim();
  if (!fieldName) throw fail('INVALID_VALUE', 'fieldName: must not be empty');
  if ((await templates.list(w, w.actor.orgUuid, { name: fieldName })).some((o) => o.uuid !== t.uuid))
    throw fail('CONFLICT', `The organization already has a user metadata field named "${fieldName}"`);
  if (!(t.maxLength >= 1 && t.maxLength <= MAX_VALUE_LENGTH)) throw fail('INVALID_VALUE', `maxLength: must be 1 to ${MAX_VALUE_LENGTH}`);
  const checked = { ...t, fieldName, allowedValues: t.allowedValues?.length ? [...new Set(t.allowedValues.map((v) => v.trim()))] : null };
  // A stricter template must still hold every value already saved under it.
  if (previous) for (const f of await fields.list(w, w.actor.orgUuid, { name: t.uuid })) checkValue(checked, f.fieldValue);
  return checked;
}

const templates = orgRecords({
  entity: 'USER_METADATA_TEMPLATE',
  label: 'User metadata field template',
  nameOf: (t) => t.fieldName,
  check: checkTemplate,
  stamp,
});

type MetadataDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export interface TemplateInput {
  fieldName?: string | null;
  scimFieldName?: string | null;
  valueType?: ValueType | null;
  allowedValues?: string[] | null;
  maxLength?: number | null;
}

export async function createTemplate(deps: MetadataDeps, ctx: CallerContext, input: TemplateInput): Promise<UserMetadataTemplateRecord> {
  return write(deps, ctx, (w) => insertTemplate(w, input));
}

export async function updateTemplate(deps: MetadataDeps, ctx: CallerContext, uuid: string, input: TemplateInput): Promise<UserMetadataTemplateRecord> {
  const given = <T>(v: T | null | undefined) => (v === null ? undefined : v);
  return templates.update(deps, ctx, uuid, {
    fieldName: given(input.fieldName),
    scimFieldName: input.scimFieldName,
    valueType: given(input.valueType),
    allowedValues: input.allowedValues,
    maxLength: given(input.maxLength),
  });
}

/** Deletes a template with every user's value of it, in one write. */
export async function deleteTemplate(deps: MetadataDeps, ctx: CallerContext, uuid: string): Promise<UserMetadataTemplateRecord> {
  return write(deps, ctx, async (w) => {
    const template = await templates.delete(w, uuid);
    for (const f of await fields.list(w, ctx.orgUuid, { name: uuid })) await fields.delete(w, f.uuid);
    return template;
  });
}

/** The organization's templates by uuid. */
export async function templateMap(source: ReadSource, orgUuid: string): Promise<Record<string, UserMetadataTemplateRecord>> {
  return Object.fromEntries((await templates.list(source, orgUuid)).map((t) => [t.uuid, t]));
}

async function checkUser(source: ReadSource, orgUuid: string, userUuid: string): Promise<void> {
  if (!(await store.findUser(dbOf(source), orgUuid, userUuid))) throw fail('NOT_FOUND', `User ${userUuid}`);
}

/** A user's values by template uuid. */
export async function userFieldMap(source: ReadSource, orgUuid: string, userUuid: string): Promise<Record<string, UserMetadataFieldRecord>> {
  await checkUser(source, orgUuid, userUuid);
  return Object.fromEntries((await fields.list(source, orgUuid, { ownerUuids: [userUuid] })).map((f) => [f.templateUuid, f]));
}

/** Writes a user's values in the write, keyed by template uuid or field name, each checked against its template. */
export async function putFields(w: WriteScope, userUuid: string, values: Record<string, string>): Promise<void> {
  await checkUser(w, w.actor.orgUuid, userUuid);
  const all = await templates.list(w, w.actor.orgUuid);
  const existing = await userFieldMap(w, w.actor.orgUuid, userUuid);
  for (const [key, value] of Object.entries(values)) {
    const template = all.find((t) => t.uuid === key) ?? all.find((t) => t.fieldName === key);
    if (!template) throw fail('NOT_FOUND', `User metadata field template ${key}`);
    const fieldValue = checkValue(template, value);
    const current = existing[template.uuid];
    if (current) await fields.put(w, current.uuid, { fieldValue });
    else await fields.insert(w, { orgUuid: w.actor.orgUuid, userUuid, templateUuid: template.uuid, fieldValue, createdAtMillis: 0, updatedAtMillis: 0 });
  }
}

/** saveUserMetadataFields: all of the values are saved, or none. */
export async function saveFields(deps: MetadataDeps, ctx: CallerContext, userUuid: string, values: Record<string, string>) {
  await write(deps, ctx, (w) => putFields(w, userUuid, values));
  return { templateMap: await templateMap(deps, ctx.orgUuid), userFieldValueMap: await userFieldMap(deps, ctx.orgUuid, userUuid) };
}

/** Whether the organization has a custom field of this name. */
/** The organization's user metadata templates, field name to uuid (a site file seeded again finds them by name). */
export async function templateUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName((await templates.list(source, orgUuid)).map((t) => ({ name: t.fieldName, uuid: t.uuid })));
}

export async function deleteField(deps: MetadataDeps, ctx: CallerContext, input: { userUuid: string; templateUuid: string }): Promise<UserMetadataFieldRecord> {
  return write(deps, ctx, async (w) => {
    const field = (await userFieldMap(w, ctx.orgUuid, input.userUuid))[input.templateUuid];
    if (!field) throw fail('NOT_FOUND', `User metadata field ${input.templateUuid} of user ${input.userUuid}`);
    return fields.delete(w, field.uuid);
  });
}

/** Deletes a user's values with the user (in the user's delete). */
export async function deleteFieldsOfUser(w: WriteScope, userUuid: string): Promise<void> {
  for (const f of await fields.list(w, w.actor.orgUuid, { ownerUuids: [userUuid] })) await fields.delete(w, f.uuid);
}

/** Creates a template in a write (createUserMetadataFieldTemplate, and the site file's userMetadataTemplates). */
export async function insertTemplate(w: WriteScope, input: TemplateInput): Promise<UserMetadataTemplateRecord> {
  return templates.insert(w, {
    orgUuid: w.actor.orgUuid,
    fieldName: input.fieldName ?? '',
    scimFieldName: input.scimFieldName ?? null,
    valueType: input.valueType ?? 'TEXT',
    allowedValues: input.allowedValues ?? null,
    maxLength: input.maxLength ?? MAX_VALUE_LENGTH,
    createdAtMillis: 0,
    updatedAtMillis: 0,
  });
}
