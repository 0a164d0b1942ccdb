import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../../store/database.js';
import type { DB } from '../../../store/schema.js';
import type { DeviceKind } from '../tables.js';

/** The model of a camera that never said which it is (a hardware variation of the catalogue's enum). */
export const DEFAULT_CAMERA_MODEL = 'CAMERA_R510';

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
export async function minimalCameraStatesJson(
  db: Kysely<DB>,
  dialect: DialectName,
  orgUuid: string,
  kinds: readonly DeviceKind[],
  facets: readonly string[],
  nowMs: number,
) {
  const postgres = dialect === 'postgres';
  const column = (name: string) => sql.ref(`devices.${name}`);
  const json = (text: string) => (postgres ? sql`${sql.lit(text)}::json` : sql`json(${sql.lit(text)})`);
  // An attribute of the device (its JSON column), as JSON: null when absent.
  const attribute = (key: string) =>
    postgres ? sql`(${column('attributes')}::json -> ${sql.lit(key)})` : sql`json_extract(${column('attributes')}, ${sql.lit(`$.${key}`)})`;
  // toMinimalCameraState's num(): a number attribute, else null.
  const number = (key: string) =>
    postgres
      ? sql`case when json_typeof(${attribute(key)}) = 'number' then ${attribute(key)} end`
      : sql`case when json_type(${column('attributes')}, ${sql.lit(`$.${key}`)}) in ('integer', 'real') then ${attribute(key)} end`;
  // A text attribute, else the fallback.
  const text = (key: string, fallback: string) =>
    postgres
      ? sql`case when json_typeof(${attribute(key)}) = 'string' then ${column('attributes')}::json ->> ${sql.lit(key)} else ${sql.lit(fallback)} end`
      : sql`case when json_type(${column('attributes')}, ${sql.lit(`$.${key}`)}) = 'text' then ${attribute(key)} else ${sql.lit(fallback)} end`;
  // The list of strings, as toMinimalCameraState keeps it (the services write only strings there).
  const list = (key: string) =>
    postgres
      ? sql`case when json_typeof(${attribute(key)}) = 'array' then ${attribute(key)} else '[]'::json end`
      : sql`json(case when json_type(${column('attributes')}, ${sql.lit(`$.${key}`)}) = 'array' then ${attribute(key)} else '[]' end)`;
  const shared = sql`exists (select 1 from shared_live_streams s where s.org_uuid = ${column('org_uuid')} and s.device_uuid = ${column('uuid')}
      and (s.expires_at_ms is null or s.expires_at_ms > ${nowMs}))`;
  // The facet ids of facetId() in ids.ts, `<uuid>.<facet>`, each to the camera's name.
  const facetNames = facets.flatMap((f) => [sql`${column('uuid')} || ${sql.lit(`.${f}`)}`, column('name')]);
  const fields: [name: string, value: RawBuilder<unknown>][] = [
    ['uuid', column('uuid')],
    ['name', column('name')],
    ['locationUuid', column('location_uuid')],
    ['connectionStatus', column('connection_status')],
    ['healthStatus', column('health_status')],
    // healthDetailsOf (../service.ts), in SQL.
    ['healthStatusDetails', sql`case when ${column('connection_status')} = 'RED' then 'DISCONNECTED' else 'NONE' end`],
    ['firmwareVersion', sql`coalesce(${column('firmware_version')}, '')`],
    ['serialNumber', sql`coalesce(${column('serial_number')}, '')`],
    ['hwVariation', text('hwVariation', DEFAULT_CAMERA_MODEL)],
    ['supportedFacets', json(JSON.stringify(facets))],
    ['facetNameMap', postgres ? sql`json_object(array[${sql.join(facetNames)}])` : sql`json_object(${sql.join(facetNames)})`],
    ['defaultInterfaceMac', column('mac_address')],
    ['lanAddresses', list('lanAddresses')],
    ['latitude', number('latitude')],
    ['longitude', number('longitude')],
    ['directionRadians', number('directionRadians')],
    ['liveStreamShared', postgres ? shared : sql`json(case when ${shared} then 'true' else 'false' end)`],
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
  // As bytes (a blob): megabytes of JSON go to the socket without being made a string and encoded again.
  const query = sql<{ list: Buffer }>`select cast(json_group_array(json_object(${sql.join(fields.map(([name, value]) => sql`${sql.lit(name)}, ${value}`))})
        order by ${column('name')}, ${column('uuid')}) as blob) as list from devices ${where}`;
  const { rows } = await query.execute(db);
  return rows[0]!.list;
}

/** What the uptime of the organization's devices of some kinds is worked out from (device-connection.service.ts). */
export async function uptimeDevices(db: Kysely<DB>, orgUuid: string, kinds: readonly DeviceKind[]) {
  const rows = await db
    .selectFrom('devices')
    .select(['uuid', 'created_at_ms', 'connection_status'])
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...kinds])
    .execute();
  return rows.map((r) => ({ uuid: r.uuid, createdAtMillis: Number(r.created_at_ms), connectionStatus: r.connection_status }));
}
