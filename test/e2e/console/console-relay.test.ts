import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { apiAs, useTestServer } from '../../helpers/api.js';
import type { TestServer } from '../../helpers/server.js';
import { adminTokenOf, control } from '../control/admin.js';

/** Opens the console's stream relay and answers the frames it receives, as text. */
function openRelay(server: TestServer, origin?: string): Promise<{ ws: WebSocket; frames: string[]; next: () => Promise<string> }> {
  const ws = new WebSocket(`${server.rest.replace(/^http/, 'ws')}/console/stream`, ['v12.stomp'], origin ? { origin } : {});
  const frames: string[] = [];
  const waiting: ((f: string) => void)[] = [];
  ws.on('message', (data) => {
    const text = data.toString();
    if (text.trim() === '') return;
    const w = waiting.shift();
    if (w) w(text);
    else frames.push(text);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const f = frames.shift();
      if (f !== undefined) return resolve(f);
      const timer = setTimeout(() => reject(new Error('no frame within 5 s')), 5000);
      waiting.push((t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const connectFrame = (key: string) => `CONNECT\naccept-version:1.2\nhost:gatehouse\nx-auth-apikey:${key}\nheart-beat:0,0\n\n\0`;

describe('console: the stream relay (/console/stream) and the control routes the console uses', () => {
  const server = useTestServer('sqlite');

  it('relays the platform stream, authenticated by the key of the CONNECT frame', async () => {
    const org = await server().createOrg('Relay Org');
    const { ws, next } = await openRelay(server());
    ws.send(connectFrame(org.apiKey));
    assert.match(await next(), /^CONNECTED\n/);
    ws.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${org.orgUuid}\nreceipt:r1\n\n\0`);
    assert.match(await next(), /^RECEIPT\nreceipt-id:r1/);
    await control(server(), `/orgs/${org.orgUuid}/seed`, { locations: [{ name: 'Relayed HQ' }] });
    const message = await next();
    assert.match(message, /^MESSAGE\n/);
    assert.match(message, /Relayed HQ/);
    ws.close();
  });

  it("answers a refused key with the stream's own refusal as a STOMP ERROR", async () => {
    const { ws, next } = await openRelay(server());
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.send(connectFrame('us_not-a-real-key'));
    const error = await next();
    assert.match(error, /^ERROR\n/);
    await closed;
  });

  it('refuses a first frame other than CONNECT, and a page of another origin', async () => {
    const { ws, next } = await openRelay(server());
    ws.send('SUBSCRIBE\nid:0\ndestination:/topic/change/x\n\n\0');
    assert.match(await next(), /^ERROR\n[\s\S]*CONNECT/);
    ws.close();
    await assert.rejects(openRelay(server(), 'http://evil.example'), /HTTP 403/);
  });

  it('lists the simulator events with their flags (GET /_gatehouse/simulate), behind the admin token', async () => {
    const r = await fetch(`${server().rest}/_gatehouse/simulate`);
    assert.equal(r.status, 401);
    const listed = await fetch(`${server().rest}/_gatehouse/simulate`, {
      headers: { authorization: `Bearer ${adminTokenOf(server())}` },
    });
    const json = (await listed.json()) as { events: { event: string; body: { required?: string[] } }[] };
    const alert = json.events.find((e) => e.event === 'alert');
    assert.ok(alert, 'the alert event is listed');
    assert.deepEqual(alert.body.required, ['device', 'trigger']);
  });

  it("compiles every simulator event's flags: an unknown flag is refused in flags, never a 500", async () => {
    const headers = { authorization: `Bearer ${adminTokenOf(server())}`, 'content-type': 'application/json' };
    const listed = (await (await fetch(`${server().rest}/_gatehouse/simulate`, { headers })).json()) as { events: { event: string }[] };
    assert.ok(listed.events.length > 10, `${listed.events.length} events`);
    for (const { event } of listed.events) {
      const r = await fetch(`${server().rest}/_gatehouse/simulate/${event}`, { method: 'POST', headers, body: JSON.stringify({ notAFlag: 1 }) });
      const text = await r.text();
      assert.equal(r.status, 400, `${event}: ${text}`);
      // In flags: the first refusal is a required flag missing, else the unknown one.
      assert.match(JSON.parse(text).errorMsg, new RegExp(`^(unknown flag --not-a-flag for ${event}|--[a-z-]+ is required \\(${event} )`), event);
    }
  });

  it('creates a working API key for an organization (POST /_gatehouse/orgs/:org/keys)', async () => {
    const org = await server().createOrg('Key Org');
    const made = await control(server(), `/orgs/${org.orgUuid}/keys`, {});
    assert.equal(made.json.error, false, made.text);
    assert.notEqual(made.json.apiKey, org.apiKey);
    const read = await apiAs(server, made.json.apiKey).ok('/api/org/getOrgV2');
    assert.equal(read.orgUuid, org.orgUuid);
    const unknown = await control(server(), `/orgs/AAAAAAAAAAAAAAAAAAAAAA/keys`, {});
    assert.notEqual(unknown.status, 500);
    assert.equal(unknown.json.error, true);
  });
});
