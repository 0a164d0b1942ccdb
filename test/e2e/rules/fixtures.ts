import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallResult, TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/**
 * A site for rule tests: a button and an audio gateway at HQ (New York), two doors there (the Back Door
 * relocks after its 300 ms unlock duration), and Business Hours, Monday 09:00-17:00 on HQ's wall clock.
 */
export const RULES_SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
users: [{name: Ada}]
schedules: [{name: Business Hours, intervals: [{start: 540, stop: 1020}]}]
sensors: [{name: Panic, kind: button, location: HQ}, {name: Spare, kind: button, location: HQ}]
audioGateways: [{name: Speaker, location: HQ}]
cameras: [{name: Lobby, location: HQ}]
relays: [{name: Gate Relay, location: HQ}]
doors:
  - {name: Back Door, location: HQ, lock: true, access: [Ada], unlockDurationMs: 300}
  - {name: Vault Door, location: HQ, lock: true, access: [Ada], unlockDurationMs: 600000}
`;

export interface RulesSite {
  locations: Record<'HQ', string>;
  users: Record<'Ada', string>;
  schedules: Record<'Business Hours', string>;
  sensors: Record<'Panic' | 'Spare', string>;
  audioGateways: Record<'Speaker', string>;
  cameras: Record<'Lobby', string>;
  relays: Record<'Gate Relay', string>;
  doors: Record<'Back Door' | 'Vault Door', string>;
}

export async function seedRulesSite(server: TestServer, orgUuid: string): Promise<RulesSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, RULES_SITE, { contentType: 'application/yaml' });
  assert.equal(r.json.error, false, r.text);
  return r.json as RulesSite;
}

/** Monday 8 January 2024, 10:00 in New York (inside Business Hours) and 08:00 (outside). */
export const MONDAY_10AM_NY = Date.UTC(2024, 0, 8, 15, 0);
export const MONDAY_8AM_NY = Date.UTC(2024, 0, 8, 13, 0);

/** Creates a rule and answers its uuid. */
export async function createRule(server: TestServer, key: string, rule: Record<string, unknown>): Promise<string> {
  const r = await server.call('/api/button/createRuleForButton', { rule: { triggerPress: 'SINGLE', ...rule } }, { key });
  assert.equal(r.json.error, false, r.text);
  return r.json.ruleUuid;
}

/** Presses a button through the simulator; answers the press event and the firings with their outcomes. */
export async function press(server: TestServer, button: string, kind = 'SINGLE', extra: Record<string, unknown> = {}): Promise<{ event: any; firings: any[] }> {
  const r: CallResult = await control(server, '/simulate/press', { button, press: kind, ...extra });
  assert.equal(r.json?.error, false, r.text);
  return r.json;
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

/** A real HTTP receiver on loopback (on `port`, default any) that records what it gets and answers with `respond` (default 204). */
export async function startReceiver(respond: (r: Received) => { status: number; json?: unknown } = () => ({ status: 204 }), port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' };
      received.push(r);
      const answer = respond(r);
      res.writeHead(answer.status, answer.json === undefined ? {} : { 'content-type': 'application/json' });
      res.end(answer.json === undefined ? undefined : JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a Standard Webhooks signature independently of Gatehouse's code: the spec's recipe, by hand. */
export function verifyStandardWebhook(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const timestamp = String(r.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

export { waitFor } from '../../helpers/wait.js';
