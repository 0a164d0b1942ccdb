import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertOk, createSiteOrg, type SiteOrg } from './config-site.js';

const PATH = '/api/camera/getMinimalCameraStateList';

forEachDialect('POST /api/camera/getMinimalCameraStateList', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Camera Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, {}, { key: '' })).status, 401);
  });

  it("answers the organization's cameras, by name, with their state", async () => {
    const r = await server.call(PATH, {}, { key: org.apiKey });
    assertOk(r);
    const states = r.json.cameraStates;
    assert.deepEqual(
      states.map((c: { name: string }) => c.name),
      ['Dock', 'Lobby'],
    );
    const lobby = states[1];
    assert.deepEqual(lobby, {
      uuid: org.site.cameras.Lobby,
      name: 'Lobby',
      locationUuid: org.site.locations.HQ,
      connectionStatus: 'GREEN',
      healthStatus: 'GREEN',
      healthStatusDetails: 'NONE',
      firmwareVersion: '4.2.1',
      serialNumber: 'CAM-1',
      supportedFacets: ['v0'],
      facetNameMap: { [`${org.site.cameras.Lobby}.v0`]: 'Lobby' },
      macAddress: '00:1a:2b:3c:4d:5e',
      defaultInterfaceMac: '00:1a:2b:3c:4d:5e',
      mummified: false,
      createdAtMillis: lobby.createdAtMillis,
    });
    assert.equal(typeof lobby.createdAtMillis, 'number');
    const dock = states[0];
    assert.equal(dock.connectionStatus, 'RED');
    assert.equal(dock.healthStatusDetails, 'DISCONNECTED');
    assert.equal(dock.serialNumber, null);
  });

  it('answers each organization only its own cameras', async () => {
    const mine = (await server.call(PATH, {}, { key: org.apiKey })).json.cameraStates.map((c: { uuid: string }) => c.uuid);
    const theirs = (await server.call(PATH, {}, { key: other.apiKey })).json.cameraStates.map((c: { uuid: string }) => c.uuid);
    assert.equal(theirs.length, 2);
    assert.deepEqual(
      mine.filter((u: string) => theirs.includes(u)),
      [],
    );
  });

  it('accepts includeMummified, and answers an organization without cameras an empty list', async () => {
    const empty = await server.createOrg('Empty Org');
    const r = await server.call(PATH, { includeMummified: true }, { key: empty.apiKey });
    assertOk(r);
    assert.deepEqual(r.json.cameraStates, []);
  });

  it('answers a malformed body with 400', async () => {
    const r = await server.call(PATH, { includeMummified: 'yes' }, { key: org.apiKey });
    assert.equal(r.status, 400);
  });
});
