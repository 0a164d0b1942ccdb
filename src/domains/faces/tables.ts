import type { Generated, Selectable } from 'kysely';

/** A person known by face (not an API user). */
export interface PeopleTable {
  uuid: string;
  org_uuid: string;
  name: string;
  email: string | null;
  /** The name without case or white space: what uploaded file names are matched by (see names.ts). */
  match_key: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A face image of a person (a "matchmaker"), stored on the media host's storage under `storage_key`. */
export interface FaceMatchmakersTable {
  id: string;
  org_uuid: string;
  person_uuid: string;
  transaction_id: string;
  file_name: string;
  content_type: string;
  byte_count: number;
  width: number;
  height: number;
  sha256_hex: string;
  /** Path below `<data-dir>/media/`: `<org>/faces/<person>/<id>.<ext>`. */
  storage_key: string;
  created_at_ms: number;
}

/** One row per uploaded file, success or not: what findFaceUploadMetadataByTransaction answers. */
export interface FaceUploadsTable {
  id: Generated<number>;
  org_uuid: string;
  transaction_id: string;
  file_name: string;
  success: number;
  error_msg: string | null;
  face_id: string | null;
  person_uuid: string | null;
  storage_key: string | null;
  created_at_ms: number;
}

/** An upload log row as read back. */
export type FaceUploadRow = Selectable<FaceUploadsTable>;

/** A label of a person (findPersonLabelsByOrg). */
export interface PersonLabelsTable {
  org_uuid: string;
  person_uuid: string;
  label: string;
}

/** A face a camera saw: a known person (person_uuid, face_name) or an unidentified face (both null). */
export interface FaceEventsTable {
  uuid: string;
  org_uuid: string;
  device_uuid: string;
  location_uuid: string | null;
  person_uuid: string | null;
  face_name: string | null;
  timestamp_ms: number;
  /** The person the face looked most like and how much (0 to 1), whether or not that reached the threshold. */
  match_person_uuid?: string | null;
  match_name?: string | null;
  match_confidence?: number | null;
}

/** An organization's face-matching threshold: a sighting is of a person only when the match reaches it. */
export interface FaceMatchingConfigsTable {
  org_uuid: string;
  confidence_threshold: number;
  updated_at_ms: number;
}

export interface FaceTables {
  person_labels: PersonLabelsTable;
  face_events: FaceEventsTable;
  people: PeopleTable;
  face_matchmakers: FaceMatchmakersTable;
  face_uploads: FaceUploadsTable;
  face_matching_configs: FaceMatchingConfigsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends FaceTables {}
}
