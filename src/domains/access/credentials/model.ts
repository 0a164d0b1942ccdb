import type { CredentialsTable, WorkflowStatus } from '../tables.js';
import { CATALOGUE_CREDENTIAL_TYPE, type CredentialType } from './credential-formats.js';

/** The entity name of credentials on the change stream. */
export const CREDENTIAL_ENTITY = 'ACCESS_CONTROL_CREDENTIAL';

/** A credential as the REST API returns it (the specification's access control credential, with the decoded fields). */
export interface CredentialRecord {
  uuid: string;
  orgUuid: string;
  userUuid: string | null;
  type: CredentialType;
  value: string;
  lowercaseHexValue: string;
  note: string | null;
  workflowStatus: WorkflowStatus;
  startDateEpochSecInclusive: number | null;
  endDateEpochSecExclusive: number | null;
  lastUsedAtMillis: number | null;
  lastUsedAccessControlledDoorUuid: string | null;
  lastUsedLocationUuid: string | null;
  managedCredUuid: string | null;
  numBits: number;
  facilityCode: number | null;
  companyId: number | null;
  cardNumber: number | null;
  createdAtMillis: number;
  updatedAtMillis: number;
}

const num = (v: number | null) => (v === null ? null : Number(v));

export function toCredentialRecord(row: CredentialsTable): CredentialRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    userUuid: row.user_uuid,
    type: row.type as CredentialType,
    value: row.value,
    lowercaseHexValue: row.lowercase_hex_value,
    note: row.note,
    workflowStatus: row.workflow_status,
    startDateEpochSecInclusive: num(row.start_epoch_sec),
    endDateEpochSecExclusive: num(row.end_epoch_sec),
    lastUsedAtMillis: num(row.last_used_at_ms),
    lastUsedAccessControlledDoorUuid: row.last_used_door_uuid,
    lastUsedLocationUuid: row.last_used_location_uuid,
    managedCredUuid: null,
    numBits: row.num_bits,
    facilityCode: num(row.facility_code),
    companyId: num(row.company_id),
    cardNumber: num(row.card_number),
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
  };
}

/** What a credential search narrows by (the catalogue's query filter). */
export interface CredentialQueryFilter {
  credTypeFilter?: string[] | null;
  workflowStatusFilter?: WorkflowStatus[] | null;
  lastUsedAccessControlledDoorUuidFilter?: string[] | null;
  lastUsedLocationUuidFilter?: string[] | null;
  lastUsedAfterFilter?: number | null;
  lastUsedBeforeFilter?: number | null;
}

/**
 * A credential as an answer carries it: the catalogue's type name (RHOMBUS_SECURE_CSN, HID_CORP1000_STD_35, ...)
 * for the specification's, and no field the catalogue's credential lacks (the frame length, the Corporate 1000
 * company, both read from the decoded `value`).
 */
export function credentialAnswer(record: CredentialRecord) {
  const { numBits: _bits, companyId: _company, ...rest } = record;
  return { ...rest, type: CATALOGUE_CREDENTIAL_TYPE[record.type] };
}

export const credentialAnswers = (records: readonly CredentialRecord[]) => records.map(credentialAnswer);

export const credentialsByUser = (byUser: Record<string, CredentialRecord[]>) =>
  Object.fromEntries(Object.entries(byUser).map(([user, records]) => [user, credentialAnswers(records)]));

export type CredentialAnswer = ReturnType<typeof credentialAnswer>;
