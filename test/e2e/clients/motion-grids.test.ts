import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';

/** event/getMotionGrid (py), searchMotionGrid (MCP), getMotionHeatMap and searchMotionGridWithActivities: from detections. */
forEachDialect('motion grids and heat maps', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let camera: string;
  let theirCamera: string;
  const api = apiAs(server, () => org.apiKey, '/api/event');
  const second = Math.floor(Date.now() / 1000) - 3600;
  const window = () => ({ deviceUuid: camera, startTimeUtcSecs: second - 10, endTimeUtcSecs: second + 10 });
  const yaml = `
locations: [{name: Main}]
cameras: [{name: Yard, location: Main}]
`;
  before(async () => {
    org = await server().createOrg('Motion');
    const other = await server().createOrg('Other Motion');
    camera = (await seedYaml(server(), org.orgUuid, yaml)).cameras!['Yard']!;
    theirCamera = (await seedYaml(server(), other.orgUuid, yaml)).cameras!['Yard']!;
    // Top left: columns 0-1 and rows 0-1 of the 16x9 grid; bottom right, five seconds later: row 8, columns 14-15.
    await apiAs(server, org.apiKey).ok('/api/camera/createFootageBoundingBoxes', {
      cameraUuid: camera,
      footageBoundingBoxes: [
        { a: 'MOTION', ts: second * 1000 + 200, l: 0, t: 0, r: 1250, b: 2000 },
        { a: 'MOTION_HUMAN', ts: (second + 5) * 1000 + 400, l: 9000, t: 9000, r: 10000, b: 10000 },
      ],
    });
  });

  it("answers the cells with motion by second, and the heat map's counts per cell", async () => {
    // The catalogue's map, as the Python examples walk it (each second, then its cells' row and col).
    assert.deepEqual((await api.ok('getMotionGrid', window())).motionCells, {
      [second]: [
        { row: 0, col: 0 },
        { row: 0, col: 1 },
        { row: 1, col: 0 },
        { row: 1, col: 1 },
      ],
      [second + 5]: [
        { row: 8, col: 14 },
        { row: 8, col: 15 },
      ],
    });
    assert.deepEqual((await api.ok('getMotionGrid', { ...window(), startTimeUtcSecs: second + 1 })).motionCells, {
      [second + 5]: [
        { row: 8, col: 14 },
        { row: 8, col: 15 },
      ],
    });
    const grid: number[][] = (await api.ok('getMotionHeatMap', window())).countGrid;
    assert.deepEqual([grid.length, grid[0]!.length], [9, 16]);
    assert.deepEqual([grid[0]![0], grid[1]![1], grid[8]![15], grid[4]![4]], [1, 1, 1, 0]);
    assert.equal(
      grid.flat().reduce((a, b) => a + b, 0),
      6,
    );
  });

  it('finds the seconds with motion in the cells searched, with what was seen', async () => {
    assert.deepEqual((await api.ok('searchMotionGrid', { ...window(), searchCells: [{ row: 8, col: 15 }] })).timeUtcSecsList, [second + 5]);
    assert.deepEqual((await api.ok('searchMotionGrid', { ...window(), searchCells: [{ row: 4, col: 4 }] })).timeUtcSecsList, []);
    const found = await api.ok('searchMotionGridWithActivities', {
      ...window(),
      searchCells: [
        { row: 1, col: 1 },
        { row: 8, col: 14 },
      ],
    });
    assert.deepEqual(found.timeUtcSecsToActivityMap, {
      [second]: { activities: ['MOTION'], bestTimestampMs: second * 1000 + 200 },
      [second + 5]: { activities: ['MOTION_HUMAN'], bestTimestampMs: (second + 5) * 1000 + 400 },
    });
  });

  it("answers another organization's camera as unknown; refuses a reversed window and a cell off the grid", async () => {
    for (const op of ['getMotionGrid', 'getMotionHeatMap']) assert.equal(await api.refused(op, { ...window(), deviceUuid: theirCamera }), 'Camera not found');
    assert.equal(await api.refused('searchMotionGrid', { ...window(), deviceUuid: theirCamera, searchCells: [{ row: 0, col: 0 }] }), 'Camera not found');
    assert.match(await api.refused('getMotionGrid', { ...window(), endTimeUtcSecs: second - 20 }), /endTimeUtcSecs/);
    const bad = await api.call('searchMotionGrid', { ...window(), searchCells: [{ row: 9, col: 0 }] });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorMsg, /searchCells/);
  });
});
