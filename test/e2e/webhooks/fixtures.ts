import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from '../../helpers/receiver.js';
import type { TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/** Quick deliveries: the outbox polls often, the retry schedule is shrunk (5 s becomes 0.5 ms), the change log read often. */
export const FAST_WEBHOOKS = {
  GATEHOUSE_OUTBOX_POLL_MS: '50',
  GATEHOUSE_WEBHOOK_RETRY_SCALE: '0.0001',
  GATEHOUSE_WEBHOOK_DISPATCH_POLL_MS: '100',
};

/** A site with a camera, a button, an environmental sensor and a door (with its controller) at HQ. */
export const WEBHOOK_SITE = `
locations: [{name: HQ}, {name: Annex}]
cameras: [{name: Lobby, location: HQ}, {name: Hall, location: Annex}]
sensors:
  - {name: Panic, kind: button, location: HQ}
  - {name: Spare, kind: button, location: HQ}
  - {name: Climate, kind: environmental, location: HQ, thresholds: {tempC: 30, relHumid: 60}}
doors: [{name: Front Door, location: HQ, lock: true}, {name: Back Door, location: Annex}]
`;

export interface WebhookSite {
  locations: Record<'HQ' | 'Annex', string>;
  cameras: Record<'Lobby' | 'Hall', string>;
  sensors: Record<'Panic' | 'Spare' | 'Climate', string>;
  doors: Record<'Front Door' | 'Back Door', string>;
  doorControllers: Record<'Front Door Controller' | 'Back Door Controller', string>;
}

export async function seedWebhookSite(server: TestServer, orgUuid: string): Promise<WebhookSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, WEBHOOK_SITE, { contentType: 'application/yaml' });
  assert.equal(r.json?.error, false, r.text);
  return r.json as WebhookSite;
}

/** Raises a policy alert through the simulator (the path a camera's report takes). */
export async function simulateAlert(server: TestServer, device: string, trigger = 'MOTION', extra: Record<string, unknown> = {}) {
  const r = await control(server, '/simulate/alert', { device, trigger, ...extra });
  assert.equal(r.json?.error, false, r.text);
  return r.json.policyAlert;
}

/** Runs a simulator event and checks it was taken. */
export async function simulate(server: TestServer, event: string, body: Record<string, unknown>) {
  const r = await control(server, `/simulate/${event}`, body);
  assert.equal(r.json?.error, false, r.text);
  return r.json;
}

/** Verifies a request's Standard Webhooks signature with the reference implementation; answers the verified body. */
export function verified(request: ReceivedRequest, secret: string): unknown {
  const wh = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
  return wh.verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

/** Waits a little so that anything still on its way can arrive (to check that nothing more does). */
export const settle = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));
