import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../../store/database.js';
import type { DB } from '../../../store/schema.js';
import type { DeviceKind } from '../tables.js';

/**
 * An organization's devices of the given kinds as JSON text: the array of their MinimalCameraState (the
 * response schema's item), by name then uuid, written by the database in one query. It is the same mapping as
 * toMinimalCameraState in cameras.service.ts, which the stream's CAMERA_STATE announcements use; the list's
 * test checks the two against each other. Made here because 10,000 cameras as rows, records, answer objects
 * and fast-json-stringify took 200 to 300 ms of the server's time (docs/performance.md); the database writes
 * the same text in a fraction of it, and the server reads one string.
 *
 * PostgreSQL writes each row as a record (row_to_json: its columns' types are looked up once), which took half
 * the time of json_build_object's per-call argument handling; SQLite has only json_object.
 */
export async function minimalCameraStatesJson(db: Kysely<DB>, dialect: DialectName, orgUuid: string, kinds: readonly DeviceKind[], facets: readonly string[]) {
  const postgres = dialect === 'postgres';
  const column = (name: string) => sql.ref(`devices.${name}`);
  const json = (text: string) => (postgres ? sql`${sql.lit(text)}::json` : sql`json(${sql.lit(text)})`);
  // The facet ids of facetId() in ids.ts, `<uuid>.<facet>`, each to the camera's name.
  const facetNames = facets.flatMap((f) => [sql`${column('uuid')} || ${sql.lit(`.${f}`)}`, column('name')]);
  const fields: [name: string, value: RawBuilder<unknown>][] = [
    ['uuid', column('uuid')],
    ['name', column('name')],
    ['locationUuid', column('location_uuid')],
    ['connectionStatus', column('connection_status')],
    ['healthStatus', column('health_status')],
    [
      'healthStatusDetails',
      sql`case when ${column('connection_status')} = 'RED' then 'DISCONNECTED' when ${column('health_status')} = 'GREEN' then 'NONE' end`,
    ],
    ['firmwareVersion', column('firmware_version')],
    ['serialNumber', column('serial_number')],
    ['supportedFacets', json(JSON.stringify(facets))],
    ['facetNameMap', postgres ? sql`json_object(array[${sql.join(facetNames)}])` : sql`json_object(${sql.join(facetNames)})`],
    ['macAddress', column('mac_address')],
    ['defaultInterfaceMac', column('mac_address')],
    ['mummified', json('false')],
    ['createdAtMillis', column('created_at_ms')],
  ];
  const where = sql`where ${column('org_uuid')} = ${orgUuid} and ${column('kind')} in (${sql.join(kinds.map((k) => sql`${k}`))})`;
  if (postgres) {
    // One row's JSON a result row, as text (the driver would parse json): the rows stream while the backend
    // writes the next ones, where an aggregate sends nothing until the last camera is written.
    const { rows } = await sql<{ item: string }>`select row_to_json(camera)::text as item
        from (select ${sql.join(fields.map(([name, value]) => sql`${value} as ${sql.id(name)}`))} from devices ${where}) camera
        order by camera.name, camera.uuid`.execute(db);
    return `[${rows.map((r) => r.item).join(',')}]`;
  }
  const query = sql<{ list: string }>`select json_group_array(json_object(${sql.join(fields.map(([name, value]) => sql`${sql.lit(name)}, ${value}`))})
        order by ${column('name')}, ${column('uuid')}) as list from devices ${where}`;
  const { rows } = await query.execute(db);
  return rows[0]!.list;
}
