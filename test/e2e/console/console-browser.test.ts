import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureDemoOrg } from '../../../src/demo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { adminTokenOf } from '../control/admin.js';

/**
 * The browser console (issue 35) in a real Chromium: the Debian `chromium` package, driven by playwright-core
 * (Playwright's own browser download cannot run here). The screenshots of docs/console/ are taken by
 * scripts/console-screenshots.ts, not here.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const missing = !existsSync(CHROMIUM);
if (missing) process.stderr.write(`\n*** ${CHROMIUM} is absent (apt-get install -y chromium): the console's browser tests are SKIPPED ***\n\n`);

/** Waits until the page's video (the first matching `selector`) has a frame, and then its time moves on (or it ends): it plays. */
async function plays(page: Page, selector: string): Promise<void> {
  const first = await page.waitForFunction(
    (s) => {
      const v = document.querySelector<HTMLVideoElement>(s);
      return v && v.readyState >= 2 && !v.error ? { at: v.currentTime } : null;
    },
    selector,
    { timeout: 30_000 },
  );
  const { at } = (await first.jsonValue())!;
  await page.waitForFunction(
    ({ s, at }) => {
      const v = document.querySelector<HTMLVideoElement>(s);
      return Boolean(v && (v.currentTime > at || (v.ended && v.currentTime > 0)));
    },
    { s: selector, at },
    { timeout: 30_000 },
  );
}

describe('console in Chromium: sign in, organization, stream, simulator, journal', { skip: missing ? `${CHROMIUM} is absent` : false }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let demo: { apiKey: string; orgUuid: string };
  const problems: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    demo = (await ensureDemoOrg(server.gatehouse.deps))!;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is served at /console under a strict content-security-policy, with no inline script', async () => {
    const response = await fetch(`${server.rest}/console/`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    // The footage and pictures of the media host (another origin), and nothing else's.
    const media = new URL(server.gatehouse.deps.mediaHost.base).origin;
    for (const directive of ['img-src', 'media-src', 'connect-src']) assert.match(csp, new RegExp(`${directive} [^;]*${media.replace(/\./g, '\\.')}(;| )`));
    const html = await response.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'every script has a src');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from another origin');
    assert.equal((await fetch(`${server.rest}/console`, { redirect: 'manual' })).status, 302);
  });

  it('signs in with the API key and the admin token, keeping them in session storage only', async () => {
    await page.goto(`${server.rest}/console/`);
    await page.getByLabel('Organization API key').fill(demo.apiKey);
    await page.getByLabel('Admin token').fill(adminTokenOf(server));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Doors' }).waitFor();
    await page.getByRole('heading', { name: 'Demo Organization', level: 1 }).waitFor();
    const stored = await page.evaluate(() => ({ local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage), cookie: document.cookie }));
    assert.ok(stored.session.includes(demo.apiKey));
    assert.ok(!stored.local.includes(demo.apiKey) && stored.cookie === '', 'nothing outside the tab session');
  });

  it('shows the seeded cameras and doors', async () => {
    const doors = page.locator('#doors');
    for (const name of ['Front Door', 'Server Room Door', 'Dock Door']) await doors.getByText(name, { exact: true }).waitFor();
    const cameras = page.locator('#cameras');
    for (const name of ['Lobby', 'Parking Lot', 'Loading Dock', 'Server Room']) await cameras.getByText(name, { exact: true }).waitFor();
    await page.locator('#users').getByText('Ada Admin').waitFor();
    await page.locator('#sensors').getByText('Front Desk Button').waitFor();
  });

  it('opens a camera: its live still, and its live DASH stream plays', async () => {
    await page.locator('#cameras').getByRole('link', { name: 'Lobby', exact: true }).click();
    await page.getByRole('heading', { name: 'Lobby (camera)' }).waitFor();
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.still img')?.naturalWidth ?? 0) > 0, null, { timeout: 20_000 });
    await plays(page, '.camera-media video');
    await page.getByRole('link', { name: '← Organization' }).click();
    await page.locator('#doors').waitFor();
  });

  it('unlocks a door, and its change event arrives in the stream view', async () => {
    await page.getByRole('link', { name: 'Stream' }).click();
    await page.getByText('Stream connected').waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.getByRole('button', { name: 'Unlock Front Door' }).click();
    await page.getByText('Front Door unlocked').waitFor();
    await page.locator('#doors').getByText('UNLOCKED').waitFor();
    await page.getByRole('link', { name: 'Stream' }).click();
    const doors = (await server.call('/api/component/findMinimalStateAccessControlledDoors', {}, { key: demo.apiKey })).json.accessControlledDoors as {
      door: { uuid: string; name: string };
    }[];
    const front = doors.find((d) => d.door.name === 'Front Door')!.door.uuid;
    // The oldest of the door's changes (newest first) is the unlock; its relock may follow.
    const event = page.locator('.events li').filter({ hasText: front }).last();
    await event.waitFor({ timeout: 10_000 });
    await event.getByRole('button').click();
    const body = (await event.locator('pre').textContent()) ?? '';
    assert.match(body, /UNLOCKED/, 'the change carries the unlocked door');
    // The event links to the record it changed.
    await event.getByRole('link', { name: `Open the door ${front}` }).click();
    await page.getByRole('heading', { name: 'Front Door (door)' }).waitFor();
    // The door relocks by itself after its unlock time: the organization view follows the stream, without a refresh.
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.locator('#doors tr', { hasText: 'Front Door' }).getByText('LOCKED', { exact: true }).waitFor({ timeout: 20_000 });
  });

  it('raises an alert from the simulator, which the stream shows at once', async () => {
    const cameras = (await server.call('/api/camera/getMinimalCameraStateList', {}, { key: demo.apiKey })).json.cameraStates as {
      uuid: string;
      name: string;
    }[];
    const lobby = cameras.find((c) => c.name === 'Lobby')!.uuid;
    await page.getByRole('link', { name: 'Simulator' }).click();
    await page.locator('#sim-event').selectOption('alert');
    await page.getByLabel('device (required)').fill(lobby);
    await page.getByLabel('trigger (required)').selectOption('MOTION_HUMAN');
    await page.getByRole('button', { name: 'Raise alert' }).click();
    const result = await page.locator('#sim-result').textContent({ timeout: 10_000 });
    const alertUuid = (JSON.parse(result ?? '{}') as { policyAlert?: { uuid: string } }).policyAlert?.uuid;
    assert.ok(alertUuid, result ?? '');
    await page.getByRole('link', { name: 'Stream' }).click();
    await page.locator('.events li').filter({ hasText: alertUuid }).first().waitFor({ timeout: 10_000 });
    // The alert in the feed: saved as a clip, then dismissed.
    await page.getByRole('link', { name: 'Alerts' }).click();
    const item = `#alert-feed li[data-uuid="${alertUuid}"]`;
    await page.locator(item).waitFor();
    // Its thumbnail, and its clip (DASH) plays.
    await page.waitForFunction((s) => (document.querySelector<HTMLImageElement>(`${s} img`)?.naturalWidth ?? 0) > 0, item, { timeout: 20_000 });
    await page.getByRole('button', { name: `Play clip of alert ${alertUuid}` }).click();
    await plays(page, `${item} video`);
    await page.getByRole('button', { name: `Save alert ${alertUuid}` }).click();
    await page.getByText('Alert saved as a clip', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Saved clips (1)' }).waitFor();
    await page.getByRole('button', { name: `Dismiss alert ${alertUuid}` }).click();
    await page.getByText('Alert dismissed', { exact: true }).waitFor();
    await page.locator(`#alert-feed li[data-uuid="${alertUuid}"]`).waitFor({ state: 'detached' });
  });

  it('lists schedules, rules and integrations, each with its detail', async () => {
    await page.getByRole('link', { name: 'Automation' }).click();
    await page.locator('#schedules').getByRole('link', { name: 'Business Hours' }).click();
    await page.getByRole('heading', { name: 'Business Hours (schedule)' }).waitFor();
    await page.getByText('WEEKLY_REPEATING_MINUTES').waitFor();
  });

  it('finds the unlock call in the journal, with its curl command and no secret', async () => {
    await page.getByRole('link', { name: 'Journal' }).click();
    await page.getByLabel('Path contains').fill('unlockAccessControlledDoor');
    await page.getByRole('button', { name: 'Filter' }).click();
    const entry = page.locator('.entries li[data-path="/api/accesscontrol/unlockAccessControlledDoor"]');
    await page.waitForFunction(() => document.querySelectorAll('.entries li').length === 1);
    await entry.getByRole('button').first().click();
    await entry.getByRole('button', { name: 'Copy as curl' }).click();
    await page.getByText(/Copied the curl command|copy the command shown below/).waitFor();
    const curl = (await entry.locator('pre.curl').textContent()) ?? '';
    assert.match(curl, /^curl -X POST '.*\/api\/accesscontrol\/unlockAccessControlledDoor'/);
    assert.match(curl, /\$GATEHOUSE_API_KEY/);
    assert.match(curl, /accessControlledDoorUuid/);
    const text = (await page.locator('main').textContent()) ?? '';
    assert.ok(!text.includes(demo.apiKey), 'the key is masked in the journal');
  });

  it('labels every control, moves focus with the keyboard, and reads at 390 pixels wide', async () => {
    for (const view of ['org', 'automation', 'alerts', 'simulator', 'journal', 'operations', 'stream']) {
      await page.goto(`${server.rest}/console/#/${view}`);
      await page.locator('main h1').first().waitFor();
      if (view === 'operations') await page.locator('#coverage').getByText('accesscontrol', { exact: true }).waitFor();
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button')]
          .filter((el) => {
            const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
            return !labelled && !(el.tagName === 'BUTTON' && el.textContent?.trim());
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(unlabelled, [], `${view}: every control has a label`);
    }
    await page.goto(`${server.rest}/console/#/org`);
    await page.reload();
    await page.locator('#doors').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Organization');
    await page.setViewportSize({ width: 390, height: 844 });
    for (const view of ['org', 'alerts', 'journal', 'simulator']) {
      await page.goto(`${server.rest}/console/#/${view}`);
      await page.locator('main h1').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${view}: no sideways scrolling at 390 px (overflow ${overflow})`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('made no error or warning in the browser console', () => {
    assert.deepEqual(problems, []);
  });
});
