import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/**
 * The MCP server's object searches (/api/search/: by colour, similar by text or by a found object, and the
 * re-identification of people), answered from the organization's detections: objects raised by the simulator
 * (`simulate object`) and boxes stored by createFootageBoundingBoxes. The MCP reads similarEmbeddings[].distance,
 * .embedding.deviceUuid and .timestamp; matches[].distance and .embedding; embeddings.
 */
forEachDialect('object searches over detections', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let gate: string;
  let lot: string;
  let theirs: string;
  let main: string;
  const api = apiAs(server, () => org.apiKey, '/api/search');
  const T0 = Date.now() - 3_600_000;
  const window = { startTimeMs: T0 - 1000, endTimeMs: T0 + 60_000 };
  const query = { queryStartTimeMs: T0 - 1000, queryEndTimeMs: T0 + 60_000 };
  const yaml = `
locations: [{name: Main}, {name: Yard}]
cameras: [{name: Gate, location: Main}, {name: Lot, location: Yard}]
`;
  const simulate = async (flags: object) => {
    const r = await control(server(), '/simulate/object', flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json.footageBoundingBox;
  };

  before(async () => {
    org = await server().createOrg('Object Search');
    other = await server().createOrg('Other Object Search');
    const seeded = await seedYaml(server(), org.orgUuid, yaml);
    [gate, lot, main] = [seeded.cameras!['Gate']!, seeded.cameras!['Lot']!, seeded.locations!['Main']!];
    theirs = (await seedYaml(server(), other.orgUuid, yaml)).cameras!['Gate']!;
    await simulate({ camera: gate, object: 'person', color: 'RED', attributes: 'backpack', at: T0 });
    await simulate({ camera: gate, object: 'car', color: 'RED', attributes: 'sedan', at: T0 + 1000 });
    await simulate({ camera: lot, object: 'car', color: 'BLUE', attributes: 'truck', at: T0 + 2000 });
    await simulate({ camera: lot, object: 'person', color: 'YELLOW', attributes: 'shirt', at: T0 + 3000 });
    await simulate({ camera: theirs, object: 'car', color: 'RED', attributes: 'sedan', at: T0 + 1000 });
    // A box at a known place (top left), and motion that is no object.
    await apiAs(server, org.apiKey).ok('/api/camera/createFootageBoundingBoxes', {
      cameraUuid: gate,
      footageBoundingBoxes: [
        { a: 'MOTION_HUMAN', ts: T0 + 4000, l: 100, t: 100, r: 1000, b: 1500, ro: ['green', 'jacket'] },
        { a: 'MOTION', ts: T0 + 5000, l: 0, t: 0, r: 10000, b: 10000 },
      ],
    });
  });

  it('raises an object with a colour drawn from the camera and instant when none is given: the same event, the same object', async () => {
    const at = T0 - 86_400_000;
    const first = await simulate({ camera: lot, at });
    assert.deepEqual(await simulate({ camera: lot, at }), first);
    assert.equal(first.a, 'MOTION_HUMAN');
    assert.match(first.ro[0], /^(black|blue|brown|graywhite|green|orange|pink|purple|red|yellow)$/);
  });

  it('finds objects by colour, kind and camera, newest first', async () => {
    const red = (await api.ok('searchObjectsByColor', { ...window, colorFilter: ['RED'] })).objects;
    assert.deepEqual(
      red.map((o: any) => [o.a, o.ts]),
      [
        ['MOTION_CAR', T0 + 1000],
        ['MOTION_HUMAN', T0],
      ],
    );
    const redCars = await api.ok('searchObjectsByColor', { ...window, colorFilter: ['RED'], objectTypeFilter: ['MOTION_CAR'] });
    assert.deepEqual(
      redCars.objects.map((o: any) => o.ro),
      [['red', 'car', 'sedan']],
    );
    const blueAtLot = await api.ok('searchObjectsByColor', { ...window, colorFilter: ['BLUE', 'GREEN'], deviceFilter: [`${lot}.v0`] });
    assert.deepEqual(
      blueAtLot.objects.map((o: any) => o.ts),
      [T0 + 2000],
    );
    const anyColour = await api.ok('searchObjectsByColor', window);
    assert.equal(anyColour.objects.length, 5, 'every coloured object; the bare motion is none');
    assert.equal(await api.refused('searchObjectsByColor', { ...window, deviceFilter: [theirs] }), `Device ${theirs} not found`);
  });

  it('finds the objects most like a text, nearest first, within a threshold and a region', async () => {
    const found = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'a red sedan' });
    assert.equal(found.queryAllowed, true);
    const [best, ...rest] = found.similarEmbeddings;
    assert.deepEqual([best.embedding.deviceUuid, best.embedding.timestamp, best.embedding.objectType], [`${gate}.v0`, T0 + 1000, 'MOTION_CAR']);
    assert.equal(best.embedding.embedding.length, 512);
    assert.equal(best.matchedEmbeddingId, best.embedding.embeddingId);
    assert.ok(rest.every((m: any, i: number) => m.distance >= (i === 0 ? best : rest[i - 1]).distance));
    const close = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'red sedan', similarityThreshold: 0.9 });
    assert.deepEqual(
      close.similarEmbeddings.map((m: any) => m.embedding.timestamp),
      [T0 + 1000],
    );
    const people = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'red sedan', objectTypeFilter: ['MOTION_HUMAN'] });
    assert.ok(people.similarEmbeddings.every((m: any) => m.embedding.objectType === 'MOTION_HUMAN'));
    const topLeft = [
      [0, 0],
      [2000, 0],
      [2000, 2000],
      [0, 2000],
      [0, 0],
    ];
    const inRegion = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'person in green', regionFilter: topLeft });
    assert.equal(inRegion.similarEmbeddings[0].embedding.timestamp, T0 + 4000);
    const bottomRight = topLeft.map(([x, y]) => [x! + 8000, y! + 8000]);
    const elsewhere = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'person in green', regionFilter: bottomRight });
    assert.ok(elsewhere.similarEmbeddings.every((m: any) => m.embedding.timestamp !== T0 + 4000));
    const nothing = await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'the of a' });
    assert.deepEqual([nothing.similarEmbeddings, typeof nothing.warningMsg], [[], 'string']);
  });

  it('finds the objects most like one found before, not itself; another organization’s is unknown', async () => {
    const sedan = (await api.ok('searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'red sedan' })).similarEmbeddings[0].embedding;
    const like = await api.ok('searchSimilarObjectEmbeddings', { ...query, searchEmbeddingId: sedan.embeddingId });
    assert.ok(like.similarEmbeddings.length > 0);
    assert.ok(like.similarEmbeddings.every((m: any) => m.embedding.embeddingId !== sedan.embeddingId));
    assert.deepEqual([like.similarEmbeddings[0].embedding.objectType, like.similarEmbeddings[0].embedding.deviceUuid], ['MOTION_CAR', `${lot}.v0`]);
    const theirSedan = (await apiAs(server, other.apiKey).ok('/api/search/searchSimilarObjectEmbeddingsByText', { ...query, searchText: 'red sedan' }))
      .similarEmbeddings[0].embedding;
    assert.equal(theirSedan.deviceUuid, `${theirs}.v0`);
    assert.equal(
      await api.refused('searchSimilarObjectEmbeddings', { ...query, searchEmbeddingId: theirSedan.embeddingId }),
      `Embedding ${theirSedan.embeddingId} not found`,
    );
  });

  it('lists the people seen with their re-identification vectors, and finds a person again by vector', async () => {
    const reid = { startTimestampMs: T0 - 1000, endTimestampMs: T0 + 60_000 };
    const atMain = (await api.ok('listReidentificationEmbeddings', { ...reid, locationUuid: main })).embeddings;
    assert.deepEqual(
      atMain.map((e: any) => [e.deviceUuid, e.timestamp, e.model]),
      [
        [`${gate}.v0`, T0 + 4000, 'REIDENTIFICATION_NET'],
        [`${gate}.v0`, T0, 'REIDENTIFICATION_NET'],
      ],
    );
    const [yellow] = (await api.ok('listReidentificationEmbeddings', { ...reid, deviceUuids: [lot], limit: 1 })).embeddings;
    assert.equal(yellow.embedding.length, 256);
    const { matches } = await api.ok('searchReidentificationMatchesByEmbedding', { ...reid, searchEmbedding: yellow.embedding });
    assert.deepEqual([matches[0].distance, matches[0].embedding.deviceUuid, matches[0].embedding.timestamp], [0, `${lot}.v0`, T0 + 3000]);
    assert.ok(matches.every((m: any) => m.embedding.objectType === 'MOTION_HUMAN'));
    assert.match(await api.refused('searchReidentificationMatchesByEmbedding', { ...reid, searchEmbedding: [1, 0] }), /256 values/);
  });
});
