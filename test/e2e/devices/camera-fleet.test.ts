import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { assertSameAsMissing, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';
import { closedWindowsAndLastStart } from './uptime-windows.js';

forEachDialect('camera fleet reads: occupancy and line-crossing cameras, uptime of every camera', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Fleet Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (op: string, body: object = {}, key = org.apiKey) => server.call(`/api/camera/${op}`, body, { key });

  describe('getOccupancyEnabledCameras', () => {
    it('answers the cameras whose settings count occupancy, as either config operation sets it, and no other organization’s', async () => {
      assert.deepEqual((await call('getOccupancyEnabledCameras')).json.cameras, []);
      assertOk(await call('updateConfig', { config: { deviceUuid: org.site.cameras.Lobby, occupancy_counting: true } }));
      assertOk(await call('updateConfig', { config: { deviceUuid: other.site.cameras.Dock, occupancy_counting: true } }, other.apiKey));
      let r = await call('getOccupancyEnabledCameras');
      assertOk(r);
      assert.deepEqual(
        r.json.cameras.map((c: Record<string, unknown>) => [
          c.uuid,
          c.deviceUuid,
          c.name,
          c.serialNumber,
          c.locationUuid,
          c.facetNameMap,
          c.deleted,
          c.pending,
          c.mummified,
        ]),
        [
          [
            org.site.cameras.Lobby,
            `${org.site.cameras.Lobby}.v0`,
            'Lobby',
            'CAM-1',
            org.site.locations.HQ,
            { [`${org.site.cameras.Lobby}.v0`]: 'Lobby' },
            false,
            false,
            false,
          ],
        ],
      );
      assertOk(
        await server.call(
          '/api/deviceconfig/updateFacetedConfig',
          { configUpdate: { deviceUuid: org.site.cameras.Dock, videoFacetSettings: { v0: { occupancy_counting: true } } } },
          { key: org.apiKey },
        ),
      );
      assertOk(await call('updateConfig', { config: { deviceUuid: org.site.cameras.Lobby, occupancy_counting: false } }));
      r = await call('getOccupancyEnabledCameras');
      assert.deepEqual(
        r.json.cameras.map((c: { uuid: string }) => c.uuid),
        [org.site.cameras.Dock],
      );
    });
  });

  describe('getLineCrossingEnabledCamerasForLocation', () => {
    it("answers the location's cameras counting line crossings with their faceted settings, where the line is", async () => {
      const hq = org.site.locations.HQ;
      assert.deepEqual((await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: hq })).json.camerasToConfigs, {});
      assertOk(
        await call('updateCameraLineCrossingThresholds', {
          cameraUuid: org.site.cameras.Lobby,
          objectType: 'HUMAN',
          directions: ['INGRESS'],
          pointA: { x: 0.2, y: 0.5 },
          pointB: { x: 0.8, y: 0.5 },
        }),
      );
      const r = await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: hq });
      assertOk(r);
      assert.deepEqual(Object.keys(r.json.camerasToConfigs), [org.site.cameras.Lobby]);
      const config = r.json.camerasToConfigs[org.site.cameras.Lobby];
      assert.equal(config.deviceUuid, org.site.cameras.Lobby);
      const video = config.videoFacetSettings.v0;
      assert.equal(video.cross_counting, true);
      assert.deepEqual(
        [
          video.cross_counting_settings.object_type,
          video.cross_counting_settings.directions,
          video.cross_counting_settings.in_roi[0].coordinates.map((p: any) => p.y),
        ],
        ['HUMAN', ['INGRESS'], [0.5, 1, 1, 0.5]],
      );
      assert.deepEqual((await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: org.site.locations.Annex })).json.camerasToConfigs, {});

      assertOk(await call('updateCameraLineCrossingThresholds', { cameraUuid: org.site.cameras.Lobby }));
      assert.deepEqual(
        (await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: hq })).json.camerasToConfigs,
        {},
        'a line turned off is no longer listed',
      );
    });

    it("answers another organization's location as an unknown one", async () => {
      assertSameAsMissing(
        await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: other.site.locations.HQ }),
        await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: nobodysUuid() }),
      );
      assertFails(await call('getLineCrossingEnabledCamerasForLocation', { locationUuid: nobodysUuid() }), 'Location not found');
      assert.equal((await call('getLineCrossingEnabledCamerasForLocation', {})).status, 400);
    });
  });

  describe('getUptimeWindowsForOrg', () => {
    it("answers every camera's windows from its connection history, as camera/getUptimeWindows does, and only the organization's", async () => {
      const lobby = org.site.cameras.Lobby;
      // A drop and a return after the camera's creation, and before now.
      const t = Date.now();
      while (Date.now() < t + 3) await sleep(1);
      for (const [at, state] of [
        [t + 1, { offline: true }],
        [t + 2, { online: true }],
      ] as const) {
        assert.equal((await control(server, '/simulate/connection', { device: lobby, at, ...state })).json.error, false);
      }
      const startTimeMs = t - 3_600_000;
      const endTimeMs = t + 3_600_000;
      const r = await call('getUptimeWindowsForOrg', { startTimeMs, endTimeMs });
      assertOk(r);
      const byDevice = new Map<string, { uptimeWindows: { startSeconds: number; durationSeconds: number }[]; uptimeSource: string }>(
        r.json.uptimeByDevice.map((e: { deviceUuid: string }) => [e.deviceUuid, e]),
      );
      assert.deepEqual([...byDevice.keys()].sort(), [org.site.cameras.Dock, lobby].sort(), 'every camera of the organization, none of another');
      const windows = byDevice.get(lobby)!.uptimeWindows;
      assert.equal(windows.length, 2, JSON.stringify(windows));
      assert.equal(windows[1].startSeconds, Math.floor((t + 2) / 1000));
      assert.equal(byDevice.get(lobby)!.uptimeSource, 'HARDWARE');
      assert.deepEqual(byDevice.get(org.site.cameras.Dock)!.uptimeWindows, [], 'a camera offline since it was added');
      const windowsOf = async (range: { startTimeMs: number; endTimeMs: number }) =>
        (await call('getUptimeWindowsForOrg', range)).json.uptimeByDevice.find((e: { deviceUuid: string }) => e.deviceUuid === lobby).uptimeWindows;
      assert.deepEqual(await windowsOf({ startTimeMs: t + 1, endTimeMs: t + 2 }), [], 'offline through a range that opens after the drop');
      assert.deepEqual(
        (await windowsOf({ startTimeMs: t + 2, endTimeMs })).map((w: { startSeconds: number }) => w.startSeconds),
        [Math.floor((t + 2) / 1000)],
        'online through a range that opens after the return',
      );
      const single = await call('getUptimeWindows', { cameraUuid: lobby, startTime: Math.floor(startTimeMs / 1000), endTime: Math.floor(endTimeMs / 1000) });
      assert.deepEqual(closedWindowsAndLastStart(single.json.uptimeWindows), closedWindowsAndLastStart(windows));
      const theirs = (await call('getUptimeWindowsForOrg', { startTimeMs, endTimeMs }, other.apiKey)).json.uptimeByDevice;
      assert.deepEqual(
        theirs.map((e: { uptimeWindows: unknown[] }) => e.uptimeWindows.length).sort(),
        [0, 1],
        "another organization's cameras keep their own history",
      );
    });

    it('refuses a range that ends before it starts, and a range before the cameras existed has no windows', async () => {
      assertFails(await call('getUptimeWindowsForOrg', { startTimeMs: 2000, endTimeMs: 1000 }), 'endTimeMs must be after startTimeMs');
      const r = await call('getUptimeWindowsForOrg', { startTimeMs: 1000, endTimeMs: 2000 });
      assert.deepEqual(
        r.json.uptimeByDevice.map((e: { uptimeWindows: unknown[] }) => e.uptimeWindows),
        [[], []],
      );
    });
  });
});
