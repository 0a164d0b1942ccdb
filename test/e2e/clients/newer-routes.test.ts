import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';

/** Routes of the platform's newer public spec that its MCP calls (client-calls.md, section 5), with real state. */
forEachDialect('routes the MCP calls outside the catalogue', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey);
  before(async () => {
    org = await server().createOrg('MCP Org');
    other = await server().createOrg('Other MCP Org');
    site = await seedYaml(
      server(),
      org.orgUuid,
      `
locations: [{name: Main}]
cameras: [{name: Gate, location: Main}]
sensors: [{name: Front Reader, location: Main, kind: badgeReader}]
`,
    );
  });

  it('badgereader/getMinimalStateList lists the badge readers, with their location', async () => {
    const r = await api.ok('/api/badgereader/getMinimalStateList', {});
    assert.deepEqual(
      r.minimalStates.map((s: any) => [s.uuid, s.name, s.locationUuid]),
      [[site.sensors!['Front Reader'], 'Front Reader', site.locations!.Main]],
    );
    assert.deepEqual((await apiAs(server, other.apiKey).ok('/api/badgereader/getMinimalStateList', {})).minimalStates, []);
  });

  it('camera/getFacetedConfig and updateFacetedConfig answer as deviceconfig/*, the update answering the config', async () => {
    const camera = site.cameras!.Gate!;
    const before = await api.ok('/api/camera/getFacetedConfig', { deviceUuid: camera });
    assert.deepEqual(before.config, (await api.ok('/api/deviceconfig/getFacetedConfig', { deviceUuid: camera })).config);
    const updated = await api.ok('/api/camera/updateFacetedConfig', {
      configUpdate: { deviceUuid: camera, videoFacetSettings: { v0: { img_brightness: 42 } } },
    });
    assert.equal(updated.config.videoFacetSettings.v0.img_brightness, 42);
    assert.ok(updated.config, JSON.stringify(updated));
    assert.deepEqual(updated.config, (await api.ok('/api/camera/getFacetedConfig', { deviceUuid: camera })).config);
    assert.equal((await apiAs(server, other.apiKey).call('/api/camera/getFacetedConfig', { deviceUuid: camera })).json.error, true);
  });

  it('camera/getCameraMediaUris (the MCP, with deviceUuid) answers as camera/getMediaUris', async () => {
    const camera = site.cameras!.Gate!;
    const byAlias = await api.ok('/api/camera/getCameraMediaUris', { deviceUuid: camera });
    const byCatalogue = await api.ok('/api/camera/getMediaUris', { cameraUuid: camera });
    assert.deepEqual(Object.keys(byAlias).sort(), Object.keys(byCatalogue).sort());
    assert.equal((await apiAs(server, other.apiKey).call('/api/camera/getCameraMediaUris', { deviceUuid: camera })).json.error, true);
  });
});
