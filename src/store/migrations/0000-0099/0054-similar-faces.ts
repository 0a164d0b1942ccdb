import type { Kysely, Migration } from 'kysely';

/**
 * findSimilarFaceEvents (issue 20): the sightings that look like one person, most alike first, read over an
 * index of (organization, person matched, match confidence) instead of every sighting of the organization.
 */
export function similarFaces(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('face_events_by_likeness')
        .on('face_events')
        .columns(['org_uuid', 'match_person_uuid', 'match_confidence', 'timestamp_ms', 'uuid'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('face_events_by_likeness').execute();
    },
  };
}
