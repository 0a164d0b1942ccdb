import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Where in the image each counted crossing was seen (issue 34: count reports of scope REGION): a point as a share
 * of the image width and height (0..1, from the top left), double precision on both dialects so a point on a
 * region's edge reads back the same. The crossings recorded before have no position: they are put at the centre.
 */
export function crossingPositions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['position_x', 'position_y']) {
        await db.schema
          .alterTable('crossing_events')
          .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(sql`0.5`))
          .execute();
      }
    },
  };
}
