/**
 * Every entity the stream carries, by name, with the record its change events hold (`update`: the record as
 * the REST API returns it). `w.change()` (src/bus/write.ts) is typed by this map, so an unknown entity name or a
 * payload of the wrong shape does not compile. The bus declares the map empty and imports nothing from the
 * domains: each domain adds its own entities in its `entities.ts` (`src/domains/<domain>/entities.ts`), by
 * declaration merging, one line each (`NAME: RecordType; // what it is`); docs/streaming.md's list is generated
 * from those lines by `npm run coverage`, and a test checks it.
 */
export interface ChangeEntities {}

export type EntityName = keyof ChangeEntities;
