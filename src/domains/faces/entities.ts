/**
 * The entities the faces domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { FaceEventRecord } from './face-events.schemas.js';
import type { FaceMatchingConfigRecord } from './face-matching.service.js';
import type { FaceMatchmakerRecord, PersonRecord } from './records.js';

/** A person's labels, as the stream announces a change of them. */
export interface PersonLabelsChange {
  personUuid: string;
  labels: string[];
}

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    FACE_EVENT: FaceEventRecord; // a face seen by a camera (a known person or not)
    FACE_MATCHMAKER: FaceMatchmakerRecord; // a face of a person
    PERSON: PersonRecord; // a person
    PERSON_LABELS: PersonLabelsChange; // a person's labels
    FACE_MATCHING_CONFIG: FaceMatchingConfigRecord; // the organization's face-matching threshold
  }
}
