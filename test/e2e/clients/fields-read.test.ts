import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/**
 * Every field the platform's clients read from an answer (client-calls.md, section 1: the "fields read" column) is
 * present and not null in Gatehouse's answer, after seeding an organization with a record of each kind read. The
 * fields are kept in test/fixtures/client-fields-read.json (route to paths: `a[].b` is field b of every element of
 * list a, which must not be empty), which must match the reference wherever it is at hand;
 * GATEHOUSE_WRITE_FIXTURES=1 writes it from the reference.
 */
const FIXTURE = join(REPO_ROOT, 'test/fixtures/client-fields-read.json');
const REFERENCE = join(REPO_ROOT, '../shared/reference/client-calls.md');

/** Fields of the envelope (present on failure only, or optional), and a page cursor (null on the last page). */
const NOT_ANSWER_FIELDS = new Set(['error', 'errorMsg', 'warningMsg', 'status', 'lastEvaluatedKey']);

/**
 * The paths of one "fields read" cell: `MCP: a, b[].c; py: d[].e, .f` (a `.f` is a field of the element or object
 * named just before it, so of the first full path of its run). Prose (a note in parentheses, "whole response
 * printed", what follows a dash) is dropped.
 */
function fieldPaths(cell: string): string[] {
  const paths = new Set<string>();
  for (const segment of cell.split(/;\s*/)) {
    // Each client's list starts with its name; a segment without one is the prose of the one before.
    if (!/^\s*[A-Za-z]+:\s/.test(segment)) continue;
    const list = segment.replace(/^\s*[A-Za-z]+:\s*/, '');
    let parent = '';
    // A dash starts prose about the fields before it ("auditEvents[] — every key ... becomes a column").
    for (const raw of list.replace(/\s*—.*$/, '').split(/,\s*/)) {
      const item = raw.replace(/\s*\(.*$/, '').trim();
      if (!/^\.?[A-Za-z_][\w[\].]*$/.test(item)) continue;
      const path = item.startsWith('.') ? `${parent}${item}` : item;
      if (!item.startsWith('.')) parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : path;
      if (!NOT_ANSWER_FIELDS.has(path)) paths.add(path);
    }
  }
  return [...paths].sort();
}

/** By route, the fields the clients read (the sixth cell of each row of section 1's table). */
function fieldsReadByRoute(markdown: string): Record<string, string[]> {
  const byRoute: Record<string, string[]> = {};
  for (const line of markdown.split('\n')) {
    const m = /^\| `(\/api\/[^`]+)` \|/.exec(line);
    if (!m) continue;
    const paths = fieldPaths((line.split(' | ')[5] ?? '').replace(/\s*\|\s*$/, ''));
    if (paths.length > 0) byRoute[m[1]!] = [...new Set([...(byRoute[m[1]!] ?? []), ...paths])].sort();
  }
  return byRoute;
}

const referenceAtHand = existsSync(REFERENCE);
if (referenceAtHand && process.env.GATEHOUSE_WRITE_FIXTURES === '1')
  writeFileSync(FIXTURE, JSON.stringify(fieldsReadByRoute(readFileSync(REFERENCE, 'utf8')), null, 2) + '\n');
const FIELDS_READ: Record<string, string[]> = JSON.parse(readFileSync(FIXTURE, 'utf8'));

it(
  'keeps test/fixtures/client-fields-read.json the fields read of client-calls.md',
  { skip: !referenceAtHand && 'the shared reference is not at hand' },
  () => {
    assert.deepEqual(FIELDS_READ, fieldsReadByRoute(readFileSync(REFERENCE, 'utf8')));
  },
);

/** The values at a path: `a[].b` walks every element of a. A missing, null or empty-list step is reported. */
function problems(answer: unknown, path: string): string[] {
  const steps = path.split('.');
  const walk = (value: unknown, i: number, at: string): string[] => {
    if (i === steps.length) return [];
    const step = steps[i]!;
    const name = step.replace(/\[\]$/, '');
    const next = (value as Record<string, unknown> | null)?.[name];
    const here = at ? `${at}.${name}` : name;
    if (next === undefined || next === null) return [`${here} is ${next === null ? 'null' : 'missing'}`];
    if (!step.endsWith('[]')) return walk(next, i + 1, here);
    if (!Array.isArray(next)) return [`${here} is not a list`];
    if (next.length === 0) return i + 1 === steps.length ? [] : [`${here} is empty`];
    return next.flatMap((element, k) => walk(element, i + 1, `${here}[${k}]`));
  };
  return walk(answer, 0, '');
}

forEachDialect('every field the official clients read is in the answer', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let ids: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey);
  const T0 = Date.now() - 600_000;
  const yaml = `
locations: [{name: HQ, address1: 1 Main St, latitude: 51.5072, longitude: -0.1276}]
people: [{name: Ada Lovelace}]
users: [{name: Grace Hopper, email: Grace.Hopper@Example.com}]
cameras: [{name: Lobby, location: HQ, hwVariation: CAMERA_R510, lanAddresses: [192.168.1.20]}]
sensors:
  - {name: Air, kind: climate, location: HQ}
  - {name: Back Door, kind: door, location: HQ}
`;
  const simulate = async (event: string, flags: object) => {
    const r = await control(server(), `/simulate/${event}`, flags);
    assert.equal(r.json?.error, false, r.text);
  };

  before(async () => {
    org = await server().createOrg('Fields Read');
    ids = await seedYaml(server(), org.orgUuid, yaml);
    const camera = ids.cameras!['Lobby']!;
    // Where the camera stands and points, and a shared live stream of it: the state list reads both.
    await api.ok('/api/camera/updateDetails', { camera: { uuid: camera, latitude: 51.5073, longitude: -0.1277, directionRadians: 0.5 } });
    await api.ok('/api/camera/createSharedLiveVideoStream', { cameraUuid: camera });
    await simulate('alert', { device: camera, trigger: 'MOTION_HUMAN', at: T0 });
    await simulate('plate', { camera, plate: 'ABC123', confidence: 0.87, at: T0 + 1000 });
    await simulate('face', { camera, person: 'Ada Lovelace', at: T0 + 2000 });
    await simulate('climate', { sensor: ids.sensors!['Air']!, temp: 21, humidity: 40, at: T0 + 3000 });
    await simulate('door-sensor', { sensor: ids.sensors!['Back Door']!, state: 'OPEN', at: T0 + 4000 });
  });

  /** The routes walked, with a body that finds the seeded records. */
  const ROUTES: Array<[string, () => object]> = [
    ['/api/camera/getMinimalCameraStateList', () => ({})],
    ['/api/camera/getMinimalList', () => ({})],
    ['/api/climate/getMinimalClimateStateList', () => ({})],
    ['/api/door/getMinimalDoorStateList', () => ({})],
    ['/api/location/getLocations', () => ({})],
    ['/api/user/getUsersInOrg', () => ({})],
    ['/api/org/getOrgV2', () => ({})],
    ['/api/event/getPolicyAlertsV2', () => ({ deviceUuids: [ids.cameras!['Lobby']] })],
    ['/api/event/getPolicyAlertGroupsForDevice', () => ({ deviceUuid: ids.cameras!['Lobby'] })],
    ['/api/vehicle/getVehicleEvents', () => ({ startTimeMs: T0 - 1000, endTimeMs: T0 + 60_000 })],
    ['/api/search/searchLicensePlates', () => ({ licensePlate: 'ABC123' })],
    ['/api/faceRecognition/faceEvent/findFaceEventsByOrg', () => ({})],
    ['/api/report/getAuditFeed', () => ({})],
  ];

  it('answers each field read, not null, for every route walked', async () => {
    const found = new Set<string>(); // the problems
    for (const [route, body] of ROUTES) {
      const fields = FIELDS_READ[route];
      assert.ok(fields, `${route}: no fields read in the fixture`);
      const answer = await api.ok(route, body());
      for (const path of fields) for (const p of problems(answer, path)) found.add(`${route}: ${p}`);
    }
    assert.deepEqual([...found], []);
  });

  it('answers the values stored by the operations and the simulator, not stand-ins', async () => {
    const camera = ids.cameras!['Lobby']!;
    const { cameraStates, uptimeWindows } = await api.ok('/api/camera/getMinimalCameraStateList', {});
    const state = cameraStates.find((c: { uuid: string }) => c.uuid === camera);
    assert.deepEqual(
      [state.latitude, state.longitude, state.directionRadians, state.hwVariation, state.lanAddresses, state.liveStreamShared],
      [51.5073, -0.1277, 0.5, 'CAMERA_R510', ['192.168.1.20'], true],
    );
    assert.ok(Array.isArray(uptimeWindows[camera]));
    const { locations } = await api.ok('/api/location/getLocations', {});
    assert.deepEqual([locations[0].latitude, locations[0].longitude], [51.5072, -0.1276]);
    const grace = (await api.ok('/api/user/getUsersInOrg', {})).users.find((u: { name: string }) => u.name === 'Grace Hopper');
    assert.deepEqual(
      [grace.firstName, grace.lastName, grace.email, grace.emailCaseSensitive],
      ['Grace', 'Hopper', 'grace.hopper@example.com', 'Grace.Hopper@Example.com'],
    );
    const { cameraConfigOptions } = await api.ok('/api/org/getOrgV2', {});
    assert.deepEqual(cameraConfigOptions, { CAMERA_R510: [{ resolution: { width: 1920, height: 1080 } }] });
    const search = await api.ok('/api/search/searchLicensePlates', { licensePlate: 'ABC123' });
    assert.deepEqual(
      [search.vehicleEvents[0].confidence, search.licensePlateEvents[0].confidence, search.licensePlateEvents[0].vehicleLicensePlate],
      [0.87, 0.87, 'ABC123'],
    );
  });
});
