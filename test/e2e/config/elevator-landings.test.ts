import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const ELEVATOR = '/api/component/elevator';
const LANDINGS = 230;

/** A site with many landings over two locations. */
const manyLandings = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `Landing ${from + i}`, location: (from + i) % 3 === 0 ? 'Annex' : 'HQ', floor: (from + i) % 100 }));

forEachDialect('access controlled elevator landings', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  let busy: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Elevator Org');
    other = await createSiteOrg(server, 'Other Org');
    busy = await createSiteOrg(server, 'Busy Org', { locations: [{ name: 'HQ' }, { name: 'Annex' }], elevatorLandings: manyLandings(0, LANDINGS) });
  });
  after(() => server.close());
  const call = (op: string, body: object, key = org.apiKey) => server.call(`${ELEVATOR}/${op}`, body, { key });
  const labelsOf = async (key = org.apiKey) => {
    const r = await call('getAccessControlledElevatorLandingLabelsForOrg', {}, key);
    assertOk(r);
    return r.json.accessControlledElevatorLandingLabels as Record<string, string[]>;
  };

  /** Pages through an operation, bounded, and answers every uuid in the order the pages gave them. */
  async function pageThrough(op: string, body: object, maxPageSize: number, onPage: (n: number) => Promise<void> = async () => {}): Promise<string[]> {
    const seen: string[] = [];
    let lastEvaluatedKey: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const r = await call(op, { ...body, maxPageSize, ...(lastEvaluatedKey ? { lastEvaluatedKey } : {}) }, busy.apiKey);
      assertOk(r);
      assert.ok(r.json.shadows.length <= maxPageSize);
      seen.push(...r.json.shadows.map((s: { componentCompositeUuid: string }) => s.componentCompositeUuid));
      await onPage(page);
      if (!r.json.lastEvaluatedKey) return seen;
      lastEvaluatedKey = r.json.lastEvaluatedKey;
    }
    throw new Error('paging did not end');
  }

  it('every operation requires authentication', async () => {
    for (const op of [
      'addAccessControlledElevatorLandingLabel',
      'removeAccessControlledElevatorLandingLabel',
      'getAccessControlledElevatorLandingLabelsForOrg',
      'findAccessControlledElevatorLandingShadows',
      'findAccessControlledElevatorLandingShadowsByLocation',
    ]) {
      assert.equal((await call(op, {}, '')).status, 401, op);
    }
  });

  describe('labels', () => {
    it('adds labels to a landing, idempotently, lists them by landing, and announces each change', async () => {
      const floor2 = org.site.elevatorLandings['Floor 2'];
      const floor3 = org.site.elevatorLandings['Floor 3'];
      const events = await changesDuring(server, async () => {
        assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor2, label: ' Executive ' }));
        assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor2, label: 'Executive' }));
        assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor2, label: 'Amenities' }));
        assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: 'Storage' }));
      });
      assert.deepEqual(await labelsOf(), { [floor2]: ['Amenities', 'Executive'], [floor3]: ['Storage'] });
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [
          ['ELEVATOR_LANDING', 'UPDATE', floor2],
          ['ELEVATOR_LANDING', 'UPDATE', floor2],
          ['ELEVATOR_LANDING', 'UPDATE', floor3],
        ],
      );
      assert.deepEqual(events[1].update, { uuid: floor2, orgUuid: org.orgUuid, labels: ['Amenities', 'Executive'] });
      assert.deepEqual(await labelsOf(other.apiKey), {}, 'another organization sees none of them');
    });

    it('removes a label, and refuses one the landing does not have', async () => {
      const floor3 = org.site.elevatorLandings['Floor 3'];
      const events = await changesDuring(server, async () =>
        assertOk(await call('removeAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: 'Storage' })),
      );
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, (e.update as { labels: string[] }).labels]),
        [['ELEVATOR_LANDING', 'UPDATE', []]],
      );
      assert.equal((await labelsOf())[floor3], undefined);
      assertFails(
        await call('removeAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: 'Storage' }),
        'Label "Storage" of the elevator landing not found',
      );
    });

    it('refuses a blank label, and more than 50 labels on a landing', async () => {
      const floor3 = org.site.elevatorLandings['Floor 3'];
      assertFails(
        await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: '   ' }),
        'label: must not be empty',
      );
      for (let i = 0; i < 50; i++)
        assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: `L${i}` }));
      assertFails(
        await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: 'One too many' }),
        'An elevator landing holds at most 50 labels',
      );
      assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: floor3, label: 'L0' }));
      assert.equal((await labelsOf())[floor3].length, 50);
    });

    it('refuses a device that is not an elevator landing', async () => {
      assertFails(
        await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: org.site.cameras.Lobby, label: 'x' }),
        'Access controlled elevator landing not found',
      );
    });

    it("answers another organization's landing exactly as a missing one, and leaves its labels", async () => {
      const theirs = other.site.elevatorLandings['Floor 2'];
      assertOk(await call('addAccessControlledElevatorLandingLabel', { accessControlledElevatorLandingUuid: theirs, label: 'Theirs' }, other.apiKey));
      for (const op of ['addAccessControlledElevatorLandingLabel', 'removeAccessControlledElevatorLandingLabel']) {
        assertSameAsMissing(
          await call(op, { accessControlledElevatorLandingUuid: theirs, label: 'Theirs' }),
          await call(op, { accessControlledElevatorLandingUuid: nobodysUuid(), label: 'Theirs' }),
        );
      }
      assert.deepEqual(await labelsOf(other.apiKey), { [theirs]: ['Theirs'] });
    });

    it('answers a malformed body with 400', async () => {
      const floor2 = org.site.elevatorLandings['Floor 2'];
      for (const body of [
        {},
        { accessControlledElevatorLandingUuid: floor2 },
        { accessControlledElevatorLandingUuid: floor2, label: '' },
        { accessControlledElevatorLandingUuid: floor2, label: 'x'.repeat(101) },
      ]) {
        assert.equal((await call('addAccessControlledElevatorLandingLabel', body)).status, 400, JSON.stringify(body));
        assert.equal((await call('removeAccessControlledElevatorLandingLabel', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/component/elevator/findAccessControlledElevatorLandingShadows', () => {
    it("answers the organization's landings as shadows", async () => {
      const r = await call('findAccessControlledElevatorLandingShadows', {});
      assertOk(r);
      assert.equal(r.json.lastEvaluatedKey, null);
      const floor2 = r.json.shadows.find((s: { componentCompositeUuid: string }) => s.componentCompositeUuid === org.site.elevatorLandings['Floor 2']);
      assert.deepEqual(floor2, {
        componentCompositeUuid: org.site.elevatorLandings['Floor 2'],
        orgUuid: org.orgUuid,
        type: 'AccessControlledElevatorLandingShadow',
        state: { state: 'ACCESS_CONTROLLED', source: 'DEFAULT_STATE', stateUpdateEventTimestampMs: floor2.createdAtMillis },
        createdAtMillis: floor2.createdAtMillis,
        updatedAtMillis: floor2.updatedAtMillis,
      });
      assert.equal(r.json.shadows.length, 2, 'only its own landings');
    });

    it('pages through many landings without skipping or repeating one, whatever the page size', async () => {
      const all = Object.values(busy.site.elevatorLandings).sort();
      for (const size of [1, 7, 100, 229, 230, 1000]) {
        const seen = await pageThrough('findAccessControlledElevatorLandingShadows', {}, size);
        assert.equal(seen.length, LANDINGS, `page size ${size}`);
        assert.deepEqual([...seen].sort(), all, `page size ${size}`);
      }
      assert.equal((await call('findAccessControlledElevatorLandingShadows', {}, busy.apiKey)).json.shadows.length, 100, 'the default page size is 100');
    });

    it('still answers every landing exactly once when landings are added while paging', async () => {
      const existing = Object.values(busy.site.elevatorLandings);
      const added: string[] = [];
      const seen = await pageThrough('findAccessControlledElevatorLandingShadows', {}, 25, async (page) => {
        if (page !== 2) return;
        const r = await control(server, `/orgs/${busy.orgUuid}/seed`, {
          locations: [{ name: 'Tower' }],
          elevatorLandings: manyLandings(1000, 40).map((l) => ({ ...l, location: 'Tower' })),
        });
        assert.equal(r.json.error, false, r.text);
        added.push(...Object.values(r.json.elevatorLandings as Record<string, string>));
      });
      assert.equal(new Set(seen).size, seen.length, 'no landing repeated');
      for (const uuid of existing) assert.ok(seen.includes(uuid), 'no existing landing skipped');
      assert.equal(added.length, 40);
      busy.site.elevatorLandings = { ...busy.site.elevatorLandings, ...Object.fromEntries(added.map((u, i) => [`added ${i}`, u])) };
    });

    it('refuses a lastEvaluatedKey that it did not answer', async () => {
      assertFails(
        await call('findAccessControlledElevatorLandingShadows', { lastEvaluatedKey: 'garbage!' }),
        'lastEvaluatedKey: not a key that this operation answered',
      );
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{ maxPageSize: 0 }, { maxPageSize: 1001 }, { maxPageSize: 'ten' }, { lastEvaluatedKey: 5 }]) {
        assert.equal((await call('findAccessControlledElevatorLandingShadows', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/component/elevator/findAccessControlledElevatorLandingShadowsByLocation', () => {
    it("pages through one location's landings only, without skipping or repeating one", async () => {
      const annex = busy.site.locations.Annex;
      const expected = Object.entries(busy.site.elevatorLandings)
        .filter(([name]) => name.startsWith('Landing ') && Number(name.slice(8)) % 3 === 0 && Number(name.slice(8)) < LANDINGS)
        .map(([, uuid]) => uuid)
        .sort();
      assert.equal(expected.length, 77);
      for (const size of [1, 10, 77, 500]) {
        const seen = await pageThrough('findAccessControlledElevatorLandingShadowsByLocation', { locationUuid: annex }, size);
        assert.deepEqual([...seen].sort(), expected, `page size ${size}`);
        assert.equal(new Set(seen).size, seen.length);
      }
    });

    it("answers another organization's location exactly as a missing one", async () => {
      const op = 'findAccessControlledElevatorLandingShadowsByLocation';
      const foreign = await call(op, { locationUuid: other.site.locations.HQ });
      assertSameAsMissing(foreign, await call(op, { locationUuid: nobodysUuid() }));
      assert.equal(foreign.json.errorMsg, 'Location not found');
    });

    it('answers a malformed body with 400', async () => {
      const op = 'findAccessControlledElevatorLandingShadowsByLocation';
      for (const body of [{}, { locationUuid: 'x' }, { locationUuid: org.site.locations.HQ, maxPageSize: -3 }])
        assert.equal((await call(op, body)).status, 400, JSON.stringify(body));
    });
  });
});
