/**
 * `npm run screenshots`: the console's main views, as docs/console/*.png (the README shows them). Starts a
 * throw-away Gatehouse (SQLite, in a temporary directory, the demo organization), acts on it as a user would
 * (unlocks a door, raises an alert, saves its clip) and photographs each view in Debian's Chromium at 1280 pixels,
 * and the organization at 390. Needs the console built (`npm run build`) and /usr/bin/chromium.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startGatehouse } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ensureDemoOrg } from '../src/demo.js';
import { createLogger } from '../src/logger.js';
import { root } from './lib/coverage.js';

const CHROMIUM = '/usr/bin/chromium';
const out = join(root, 'docs', 'console');
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is absent (apt-get install -y chromium)`);
if (!existsSync(join(root, 'dist', 'console-app', 'index.html'))) throw new Error('The console is not built: npm run build');

const dataDir = mkdtempSync(join(tmpdir(), 'gh-screenshots-'));
const config = loadConfig(
  { dataDir, database: `sqlite:${join(dataDir, 'gatehouse.db')}`, bus: 'memory:', httpPort: 0, mediaPort: 0, wsPort: 0, seed: false },
  {},
);
const gatehouse = await startGatehouse(config, { log: createLogger('silent') });
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  const demo = (await ensureDemoOrg(gatehouse.deps))!;
  const adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  const base = `${gatehouse.urls.rest}/console/`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  mkdirSync(out, { recursive: true });
  const shot = async (name: string) => {
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`wrote docs/console/${name}.png`);
  };
  // Views change by their links, never by loading the page again: the stream's events stay in the tab.
  const open = (view: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view, exact: true }).click();
  const playing = (selector: string) =>
    page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.currentTime ?? 0) > 0.5, selector, { timeout: 30_000 });

  await page.goto(base);
  await page.getByLabel('Organization API key').fill(demo.apiKey);
  await page.getByLabel('Admin token').fill(adminToken);
  await shot('sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#doors').waitFor();
  await open('Stream');
  await page.getByText('Stream connected').waitFor({ timeout: 10_000 });
  await open('Organization');
  await page.getByRole('button', { name: 'Unlock Front Door' }).click();
  await page.locator('#doors').getByText('UNLOCKED').waitFor();
  await shot('organization');

  await page.locator('#cameras').getByRole('link', { name: 'Lobby', exact: true }).click();
  await playing('.camera-media video');
  await shot('camera');
  await page.getByRole('link', { name: '← Organization' }).click();

  await open('Simulator');
  const lobby = await page.evaluate(async (key) => {
    const r = await fetch('/api/camera/getMinimalCameraStateList', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-apikey': key },
      body: '{}',
    });
    return ((await r.json()) as { cameraStates: { uuid: string; name: string }[] }).cameraStates.find((c) => c.name === 'Lobby')!.uuid;
  }, demo.apiKey);
  await page.locator('#sim-event').selectOption('alert');
  await page.getByLabel('device (required)').fill(lobby);
  await page.getByLabel('trigger (required)').selectOption('MOTION_HUMAN');
  await shot('simulator');
  await page.getByRole('button', { name: 'Raise alert' }).click();
  await page.locator('#sim-result').waitFor();

  await open('Stream');
  await page.locator('.events li[data-entity="POLICY_ALERT"]').first().waitFor();
  await shot('stream');

  await open('Alerts');
  const alert = page.locator('#alert-feed li').first();
  await alert.getByRole('button', { name: /^Save alert/ }).click();
  await page.getByRole('heading', { name: 'Saved clips (1)' }).waitFor();
  await alert.getByRole('button', { name: /^Play clip of alert/ }).click();
  await playing('#alert-feed video');
  await shot('alerts');

  // Something in each automation list: a button rule, and a webhook integration to a port nothing listens on.
  const call = async (path: string, body: unknown) => {
    const r = await fetch(`${gatehouse.urls.rest}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-apikey': demo.apiKey },
      body: JSON.stringify(body),
    });
    return (await r.json()) as Record<string, unknown>;
  };
  const buttons = (await call('/api/button/getMinimalButtonStateList', {})).states as { sensorUuid: string; name: string }[];
  const schedules = (await call('/api/schedule/getSchedules', {})).weeklySchedules as { uuid: string }[];
  await call('/api/button/createRuleForButton', {
    rule: {
      ruleName: 'Front desk panic',
      sensorUuid: buttons.find((b) => b.name === 'Front Desk Button')!.sensorUuid,
      triggerPress: 'DOUBLE',
      ruleFilters: { scheduleUuids: schedules.map((x) => x.uuid) },
      action: { alertAction: true, liveNotificationAction: true },
    },
  });
  await call('/api/integrations/webhooks/updateWebhookIntegrationV2', { webhookUrl: 'http://127.0.0.1:9/gatehouse-events' });
  await open('Automation');
  await page.locator('#schedules').waitFor();
  await shot('automation');

  await open('Journal');
  await page.locator('.entries li').first().waitFor();
  await shot('journal');

  await open('Operations');
  await page.locator('#coverage').scrollIntoViewIfNeeded();
  await shot('operations');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}#/org`);
  await page.locator('#doors').waitFor();
  await shot('organization-390');
} finally {
  await browser.close();
  await gatehouse.close();
  rmSync(dataDir, { recursive: true, force: true });
}
