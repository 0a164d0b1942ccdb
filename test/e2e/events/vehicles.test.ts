import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { changesDuring, seedEventsSite, simulate, type EventsSite } from './fixtures.js';

const T0 = Date.UTC(2024, 8, 1, 12);

interface VehicleEvent {
  uuid: string;
  deviceUuid: string;
  eventTimestamp: number;
  vehicleLicensePlate: string;
  name: string | null;
  searchMatchedType?: string;
}

forEachDialect('vehicles and licence plates', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Plates Org');
    other = await seedEventsSite(server, 'Other Plates Org');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const read = (s: EventsSite, camera: string, plate: string, at: number) => simulate(server, 'plate', { camera, plate, at: String(at) });

  it('every operation requires authentication and refuses a malformed body', async () => {
    const paths = [
      'vehicle/saveVehicle',
      'vehicle/getVehicles',
      'vehicle/deleteVehicle',
      'vehicle/addVehicleLabel',
      'vehicle/removeVehicleLabel',
      'vehicle/getVehicleLabelsForOrg',
      'vehicle/getVehicleEvents',
      'search/searchLicensePlates',
    ];
    for (const path of paths) assert.equal((await server.call(`/api/${path}`, {}, { key: '' })).status, 401, path);
    for (const [path, body] of [
      ['vehicle/saveVehicle', {}],
      ['vehicle/saveVehicle', { vehicleLicensePlate: 'AB*12' }],
      ['vehicle/deleteVehicle', { vehicleLicensePlate: 7 }],
      ['vehicle/addVehicleLabel', { vehicleLicensePlate: 'ABC123' }],
      ['vehicle/getVehicleEvents', { deviceUuidFilter: 'x' }],
      ['search/searchLicensePlates', { forcedFuzziness: 9, licensePlate: 'A' }],
    ] as const) {
      const r = await call(`/api/${path}`, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(r.json.error, true);
    }
  });

  describe('saved vehicles', () => {
    it('saves, updates, labels and deletes a vehicle by its normalised plate, each change on the stream', async () => {
      const changes = await changesDuring(server, () => ok('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'abc-123', name: 'Delivery van', alert: false }));
      const created = changes.find((c) => c.entity === 'VEHICLE');
      assert.equal(created?.type, 'CREATE');
      assert.equal(created?.entityUuid, 'ABC123');
      const saved = created?.update as any;
      assert.deepEqual(
        { plate: saved.licensePlate, name: saved.name, alert: saved.alert, trust: saved.trust, org: saved.orgUuid },
        { plate: 'ABC123', name: 'Delivery van', alert: false, trust: false, org: site.org.orgUuid },
      );

      await ok('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'ABC 123', trust: true });
      await ok('/api/vehicle/addVehicleLabel', { vehicleLicensePlate: 'ABC123', label: 'fleet' });
      await ok('/api/vehicle/addVehicleLabel', { vehicleLicensePlate: 'ABC123', label: 'fleet' });
      await ok('/api/vehicle/addVehicleLabel', { vehicleLicensePlate: 'ABC123', label: 'blue' });
      const vehicles = (await ok('/api/vehicle/getVehicles')).vehicles;
      assert.equal(vehicles.length, 1);
      assert.deepEqual({ name: vehicles[0].name, trust: vehicles[0].trust }, { name: 'Delivery van', trust: true });
      assert.deepEqual((await ok('/api/vehicle/getVehicleLabelsForOrg')).vehicleLabels, { ABC123: ['blue', 'fleet'] });
      await ok('/api/vehicle/removeVehicleLabel', { vehicleLicensePlate: 'ABC123', label: 'blue' });
      assert.deepEqual((await ok('/api/vehicle/getVehicleLabelsForOrg')).vehicleLabels, { ABC123: ['fleet'] });

      assert.deepEqual((await ok('/api/vehicle/getVehicles', {}, { key: other.org.apiKey })).vehicles, [], 'another organization sees none');
      const theirs = await call('/api/vehicle/deleteVehicle', { vehicleLicensePlate: 'ABC123' }, { key: other.org.apiKey });
      assert.deepEqual({ error: theirs.json.error, errorMsg: theirs.json.errorMsg }, { error: true, errorMsg: 'Vehicle not found' });
      assert.equal(
        (await call('/api/vehicle/addVehicleLabel', { vehicleLicensePlate: 'ABC123', label: 'x' }, { key: other.org.apiKey })).json.errorMsg,
        'Vehicle not found',
      );

      const deletion = await changesDuring(server, () => ok('/api/vehicle/deleteVehicle', { vehicleLicensePlate: 'abc123' }));
      assert.equal(deletion.find((c) => c.entity === 'VEHICLE')?.type, 'DELETE');
      assert.deepEqual((await ok('/api/vehicle/getVehicles')).vehicles, []);
      assert.equal((await call('/api/vehicle/deleteVehicle', { vehicleLicensePlate: 'ABC123' })).json.errorMsg, 'Vehicle not found');
    });
  });

  describe('plate reads', () => {
    it('simulate plate records a read on the stream; a watched plate raises a LICENSEPLATE_ALERT, a trusted one does not', async () => {
      const s = await seedEventsSite(server, 'Watch Org');
      await ok('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'WATCH1', name: 'Stolen car', alert: true }, { key: s.org.apiKey });
      await ok('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'TRUST1', alert: true, trust: true }, { key: s.org.apiKey });
      let answer: any;
      const changes = await changesDuring(server, async () => {
        answer = await read(s, s.lobby, 'watch-1', T0);
      });
      assert.equal(answer.vehicleEvent.vehicleLicensePlate, 'WATCH1');
      assert.equal(answer.vehicleEvent.name, 'Stolen car');
      assert.equal(answer.vehicleEvent.deviceUuid, `${s.lobby}.v0`);
      assert.deepEqual(answer.policyAlert.policyAlertTriggers, ['LICENSEPLATE_ALERT']);
      assert.equal(answer.policyAlert.alertingEventVehicles[0].licensePlateNumber, 'WATCH1');
      assert.ok(changes.some((c) => c.entity === 'VEHICLE_EVENT' && c.type === 'CREATE' && c.entityUuid === answer.vehicleEvent.uuid));
      assert.ok(changes.some((c) => c.entity === 'POLICY_ALERT' && c.type === 'CREATE'));
      const alerts = (await ok('/api/event/getPolicyAlerts', {}, { key: s.org.apiKey })).policyAlerts;
      assert.deepEqual(
        alerts.map((a: any) => a.uuid),
        [answer.policyAlert.uuid],
      );

      assert.equal((await read(s, s.lobby, 'TRUST1', T0 + 1)).policyAlert, null);
      assert.equal((await read(s, s.lobby, 'OTHER9', T0 + 2)).policyAlert, null);
      const missing = await control(server, '/simulate/plate', { camera: s.air, plate: 'ABC' });
      assert.equal(missing.json.errorMsg, 'Camera not found');
    });

    it('getVehicleEvents filters by plate, name, label, unnamed, camera and time, and pages with no gaps or repeats', async () => {
      const s = await seedEventsSite(server, 'Events Plates Org');
      await ok('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'NAMED1', name: 'Boss' }, { key: s.org.apiKey });
      await ok('/api/vehicle/addVehicleLabel', { vehicleLicensePlate: 'NAMED1', label: 'vip' }, { key: s.org.apiKey });
      const reads: VehicleEvent[] = [];
      for (let i = 0; i < 23; i++) {
        const camera = i % 2 ? s.lobby : s.dock;
        const plate = ['NAMED1', 'XYZ789', 'XYZ780'][i % 3];
        reads.push((await read(s, camera, plate, T0 + Math.floor(i / 4) * 1000)).vehicleEvent);
      }
      await read(other, other.lobby, 'NAMED1', T0);

      const all: VehicleEvent[] = [];
      let cursor = {};
      for (let page = 0; page < 30; page++) {
        const events = (await ok('/api/vehicle/getVehicleEvents', { maxResults: 5, ...cursor }, { key: s.org.apiKey })).events as VehicleEvent[];
        if (events.length === 0) break;
        all.push(...events);
        cursor = { lastEventTimestamp: events.at(-1)!.eventTimestamp, lastUuid: events.at(-1)!.uuid };
      }
      assert.deepEqual(all.map((e) => e.uuid).sort(), reads.map((e) => e.uuid).sort(), "every read once, no other organization's");
      for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].eventTimestamp >= all[i].eventTimestamp, 'newest first');

      const plates = async (body: Record<string, unknown>) =>
        ((await ok('/api/vehicle/getVehicleEvents', { maxResults: 1000, ...body }, { key: s.org.apiKey })).events as VehicleEvent[]).map(
          (e) => e.vehicleLicensePlate,
        );
      const count = (plate: string) => reads.filter((r) => r.vehicleLicensePlate === plate).length;
      assert.equal((await plates({ licensePlateExactQuery: ['xyz-789'] })).length, count('XYZ789'));
      assert.deepEqual(new Set(await plates({ nameQuery: ['boss'] })), new Set(['NAMED1']));
      assert.deepEqual(new Set(await plates({ vehicleLabelQuery: ['vip'] })), new Set(['NAMED1']));
      assert.deepEqual(new Set(await plates({ unnamedQuery: true })), new Set(['XYZ789', 'XYZ780']));
      assert.deepEqual(new Set(await plates({ licensePlateFuzzyQuery: 'XYZ78' })), new Set(['XYZ789', 'XYZ780']));
      assert.equal((await plates({ deviceUuidFilter: [`${s.lobby}.v0`] })).length, reads.filter((r) => r.deviceUuid === `${s.lobby}.v0`).length);
      assert.equal((await plates({ startTimeMs: T0 + 5000 })).length, reads.filter((r) => r.eventTimestamp >= T0 + 5000).length);
      const theirs = await call('/api/vehicle/getVehicleEvents', { deviceUuidFilter: [other.lobby] }, { key: s.org.apiKey });
      assert.equal(theirs.json.errorMsg, `Device ${other.lobby} not found`);
    });

    it('searchLicensePlates finds the exact plate, and with fuzzy the plates within the edit distance', async () => {
      const s = await seedEventsSite(server, 'Search Plates Org');
      await read(s, s.lobby, 'KLM456', T0);
      await read(s, s.lobby, 'KLM457', T0 + 1);
      await read(s, s.dock, 'KLN457', T0 + 2);
      await read(s, s.dock, 'QQQ111', T0 + 3);
      await read(other, other.lobby, 'KLM456', T0);
      const search = async (body: Record<string, unknown>) =>
        (await ok('/api/search/searchLicensePlates', body, { key: s.org.apiKey })).vehicleEvents as VehicleEvent[];
      const exact = await search({ licensePlate: 'klm 456' });
      assert.deepEqual(
        exact.map((e) => [e.vehicleLicensePlate, e.searchMatchedType]),
        [['KLM456', 'EXACT']],
      );
      const fuzzy = await search({ licensePlate: 'KLM456', fuzzy: true });
      assert.deepEqual(
        fuzzy.map((e) => [e.vehicleLicensePlate, e.searchMatchedType]),
        [
          ['KLN457', 'FUZZY'],
          ['KLM457', 'FUZZY'],
          ['KLM456', 'EXACT'],
        ],
      );
      const tight = await search({ licensePlate: 'KLM456', fuzzy: true, forcedFuzziness: 1 });
      assert.deepEqual(
        tight.map((e) => e.vehicleLicensePlate),
        ['KLM457', 'KLM456'],
      );
      assert.deepEqual(
        (await search({ licensePlate: 'KLM456', fuzzy: true, deviceUuids: [`${s.dock}.v0`] })).map((e) => e.vehicleLicensePlate),
        ['KLN457'],
      );
      assert.deepEqual(await search({ licensePlate: 'ZZZ999' }), []);
    });
  });
});
