import { fromDbBool } from '../../store/columns.js';
import type { FaceMatchmakersTable, FaceUploadRow, PeopleTable } from './tables.js';

/** The records as the REST API answers them (and as the stream carries them). */

const iso = (ms: number) => new Date(ms).toISOString();

/** The reference's Person. */
export interface PersonRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  email: string | null;
  createdOn: string;
  updatedOn: string;
}

export function toPersonRecord(row: PeopleTable): PersonRecord {
  return { uuid: row.uuid, orgUuid: row.org_uuid, name: row.name, email: row.email, createdOn: iso(row.created_at_ms), updatedOn: iso(row.updated_at_ms) };
}

/** The reference's ExternalFaceMatchmaker, with what Gatehouse knows of the stored image. */
export interface FaceMatchmakerRecord {
  id: string;
  orgUuid: string;
  personUuid: string;
  createdOn: string;
  uploaded: boolean;
  transactionId: string;
  fileName: string;
  contentType: string;
  byteCount: number;
  width: number;
  height: number;
  sha256Hex: string;
}

export function toMatchmakerRecord(row: FaceMatchmakersTable): FaceMatchmakerRecord {
  return {
    id: row.id,
    orgUuid: row.org_uuid,
    personUuid: row.person_uuid,
    createdOn: iso(row.created_at_ms),
    uploaded: true,
    transactionId: row.transaction_id,
    fileName: row.file_name,
    contentType: row.content_type,
    byteCount: row.byte_count,
    width: row.width,
    height: row.height,
    sha256Hex: row.sha256_hex,
  };
}

/** The reference's FaceUploadMetadata: one per uploaded file. */
export interface FaceUploadRecord {
  transactionId: string;
  orgUuid: string;
  fileName: string;
  success: boolean;
  errorMsg: string | null;
  faceId: string | null;
  personUuid: string | null;
  origS3Key: string | null;
  createdAtMillis: number;
}

export function toUploadRecord(row: FaceUploadRow): FaceUploadRecord {
  return {
    transactionId: row.transaction_id,
    orgUuid: row.org_uuid,
    fileName: row.file_name,
    success: fromDbBool(row.success) ?? false,
    errorMsg: row.error_msg,
    faceId: row.face_id,
    personUuid: row.person_uuid,
    origS3Key: row.storage_key,
    createdAtMillis: row.created_at_ms,
  };
}
