import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createSiteOrg, type SiteOrg } from '../config/config-site.js';

/**
 * A VOD window and the live stream played by dash.js in a real browser (Debian's chromium, driven by
 * playwright-core), authenticated as the platform's example clients are: the RSESSIONID=RFT:<token> cookie.
 */
const CHROMIUM = '/usr/bin/chromium';
const DASHJS = join(process.cwd(), 'node_modules/dashjs/dist/modern/umd/dash.all.min.js');
const missing = !existsSync(CHROMIUM);
if (missing) process.stderr.write(`\n*** ${CHROMIUM} is absent: the dash.js browser test is SKIPPED (install Debian's chromium) ***\n\n`);

describe('dash.js plays the footage in Chromium', { skip: missing ? `${CHROMIUM} is absent` : false }, () => {
  let server: TestServer;
  let org: SiteOrg;
  let browser: Browser;
  before(async () => {
    server = await startTestServer('sqlite');
    org = await createSiteOrg(server, 'Browser Org');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function play(mpdUrl: string, seconds: number) {
    const token = (await server.call('/api/org/generateFederatedSessionToken', { durationSec: 600 }, { key: org.apiKey })).json.federatedSessionToken as string;
    const context = await browser.newContext();
    try {
      const media = new URL(server.gatehouse.urls.media);
      await context.addCookies([{ name: 'RSESSIONID', value: `RFT:${token}`, domain: media.hostname, path: '/' }]);
      const page = await context.newPage();
      // A page of the media host's origin (its health check), into which the player is loaded.
      await page.goto(`${server.gatehouse.urls.media}/healthz`);
      await page.setContent('<video id="v" muted autoplay playsinline></video>');
      await page.addScriptTag({ path: DASHJS });
      return await page.evaluate(
        async ({ url, seconds }) => {
          const video = document.getElementById('v') as HTMLVideoElement;
          const w = window as unknown as { dashjs: { MediaPlayer(): { create(): { initialize(v: HTMLVideoElement, url: string, autoplay: boolean): void } } } };
          const errors: string[] = [];
          const player = w.dashjs.MediaPlayer().create();
          (player as unknown as { on(e: string, f: (x: unknown) => void): void }).on('error', (e) => errors.push(JSON.stringify(e).slice(0, 300)));
          player.initialize(video, url, true);
          const deadline = Date.now() + 40_000;
          while (Date.now() < deadline && video.currentTime < seconds && !video.ended && errors.length === 0) await new Promise((r) => setTimeout(r, 200));
          return {
            currentTime: video.currentTime,
            width: video.videoWidth,
            height: video.videoHeight,
            frames: video.getVideoPlaybackQuality().totalVideoFrames,
            errors,
          };
        },
        { url: mpdUrl, seconds },
      );
    } finally {
      await context.close();
    }
  }

  it('plays a VOD window from its MPD', async () => {
    const uris = (await server.call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby }, { key: org.apiKey })).json;
    const start = Math.floor(Date.now() / 1000) - 300;
    const result = await play(uris.wanVodMpdUriTemplate.replace('{START_TIME}', String(start)).replace('{DURATION}', '8'), 3);
    assert.deepEqual(result.errors, []);
    assert.ok(result.currentTime >= 3, JSON.stringify(result));
    assert.deepEqual([result.width, result.height], [1280, 720]);
    assert.ok(result.frames >= 20, JSON.stringify(result));
  });

  it('plays the live MPD', async () => {
    const uris = (await server.call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby }, { key: org.apiKey })).json;
    const result = await play(uris.wanLiveMpdUri, 1);
    assert.deepEqual(result.errors, []);
    assert.ok(result.currentTime > 0, JSON.stringify(result));
    assert.deepEqual([result.width, result.height], [1280, 720]);
  });
});
