import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { upload } from '../faces/upload.js';
import { startSmtpSink, type SmtpSink } from '../internal/smtp-sink.js';

const SITE = `
locations: [{name: HQ}]
cameras: [{name: Lobby, location: HQ, serialNumber: SN-LOBBY, firmwareVersion: "2.4.1"}, {name: Dock, location: HQ, serialNumber: SN-DOCK}]
`;

/** A received mail's text, its quoted-printable soft line breaks undone. */
const textOf = (raw: string) => raw.replace(/=\r\n/g, '');

forEachDialect('POST /api/help/*: support tickets, RMAs, feedback and triage', (dialect) => {
  let smtp: SmtpSink;
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let theirs: Record<string, Record<string, string>>;
  const api = apiAs(
    () => server,
    () => org.apiKey,
    '/api/help',
  );
  const them = apiAs(
    () => server,
    () => other.apiKey,
    '/api/help',
  );

  before(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer(dialect, {
      env: { GATEHOUSE_SMTP_URL: smtp.url, GATEHOUSE_SUPPORT_EMAIL: 'help@operator.example', GATEHOUSE_MAIL_FROM: 'Operator Desk <desk@operator.example>' },
    });
    org = await server.createOrg('Customer');
    other = await server.createOrg('Other');
    site = await seedYaml(server, org.orgUuid, SITE);
    theirs = await seedYaml(server, other.orgUuid, 'locations: [{name: Far}]\ncameras: [{name: Far Cam, location: Far, serialNumber: SN-FAR}]');
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  it('stores a ticket, announces it, e-mails it to support and lists it as open; feedback is sent, never listed', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const t = await api.ok('ticket', {
        subject: 'Footage gaps',
        body: 'The lobby camera misses footage at night',
        serialNumbers: ['SN-LOBBY'],
        consoleAccessGranted: true,
      });
      assert.equal(t.success, true);
      const change = await watch.waitFor((c) => c.entity === 'SUPPORT_TICKET' && c.update.ticketId === t.ticketId, 'the SUPPORT_TICKET change');
      assert.deepEqual([change.type, change.update.kind, change.update.userUuid, change.update.status], ['CREATE', 'TICKET', org.userUuid, 'open']);
      assert.equal((await api.ok('feedback', { feedback: 'Love the timeline' })).success, true);
      const mails = smtp.messages.map((m) => [m.to, m.raw.match(/^Subject: (.*)$/m)?.[1]]);
      assert.deepEqual(mails, [
        [['help@operator.example'], `[TICKET #${t.ticketId}] Footage gaps`],
        [['help@operator.example'], `[FEEDBACK #${t.ticketId + 1}] Product feedback`],
      ]);
      assert.match(textOf(smtp.messages[0].raw), /misses footage at night[\s\S]*Serial numbers: SN-LOBBY/);
      assert.deepEqual(
        smtp.messages.map((m) => [m.from, m.raw.match(/^From: (.*)$/m)?.[1]]),
        Array(2).fill(['desk@operator.example', 'Operator Desk <desk@operator.example>']),
        'sent from the configured sender (GATEHOUSE_MAIL_FROM)',
      );

      const open = await api.ok('openTickets', {});
      assert.deepEqual(
        [open.totalTickets, open.hasNexPage, open.currentPage, open.tickets.map((x: any) => [x.id, x.subject, x.status])],
        [1, false, 1, [[t.ticketId, 'Footage gaps', 'open']]],
      );
      assert.match(open.tickets[0].createdAt, /^\d{4}-\d\d-\d\dT/);
      const v2 = await api.ok('openTicketsV2', { startTimeMs: Date.now() - 60_000 });
      assert.deepEqual([v2.tickets.length, v2.userTickets[0].id], [1, t.ticketId]);
      assert.deepEqual((await api.ok('openTicketsV2', { endTimeMs: Date.now() - 60_000 })).tickets, []);
      assert.deepEqual((await them.ok('openTickets', {})).tickets, []);
      assert.match(await api.refused('ticket', {}), /subject/);
    } finally {
      await watch.close();
    }
  });

  it("opens an RMA for a device of the organization, which getRMAs lists, and refuses another organization's", async () => {
    const address = { returnAddressStreet: '1 Main St', returnAddressCity: 'Springfield' };
    const r = await api.ok('rma', { serialNumber: 'SN-DOCK', problem: 'Cracked dome', contactName: 'Ada', returnShippingAddress: address });
    const rmas = (await server.call('/api/logistics/getRMAs', {}, { key: org.apiKey })).json.rmaList;
    assert.deepEqual(
      rmas.map((x: any) => [x.deviceUuid, x.zendeskTicket, x.briefDescription]),
      [[site.cameras.Dock, r.ticketId, 'Cracked dome']],
    );
    assert.ok((await api.ok('openTickets', {})).tickets.some((x: any) => x.id === r.ticketId && /^RMA: Dock/.test(x.subject)));
    assert.match(textOf(smtp.messages.at(-1)!.raw), /returnShippingAddress: 1 Main St, Springfield/);

    const sent = smtp.messages.length;
    assert.match(await api.refused('rma', { serialNumber: 'SN-FAR', problem: 'x' }), /serial number SN-FAR not found/);
    assert.match(await api.refused('rma', { deviceUuid: theirs.cameras['Far Cam'], problem: 'x' }), /not found/);
    assert.deepEqual((await server.call('/api/logistics/getRMAs', {}, { key: other.apiKey })).json.rmaList, []);
    assert.equal(smtp.messages.length, sent, 'a refused RMA sends nothing');
  });

  it('keeps the file of ticketWithFile, checked by its content', async () => {
    const path = '/api/help/ticketWithFile';
    const log = Buffer.from('12:00 camera rebooted\n12:01 camera offline\n');
    const r = await upload(server, org.apiKey, [{ name: 'camera.log', bytes: log, type: 'text/plain' }], {
      path,
      fields: { subject: 'Reboots', body: 'See log' },
    });
    assert.equal(r.json.error, false, r.text);
    const dir = join(server.config.dataDir, 'media', org.orgUuid, 'support-attachments');
    const files = await readdir(dir);
    assert.equal(files.length, 1);
    assert.match(files[0], /\.txt$/);
    assert.deepEqual(await readFile(join(dir, files[0])), log);
    assert.match(textOf(smtp.messages.at(-1)!.raw), /Attachment: camera.log \(text\/plain, 43 bytes\)/);

    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200)]);
    const refused = await upload(server, org.apiKey, [{ name: 'tool.exe', bytes: exe }], { path, fields: { subject: 'Tool' } });
    assert.deepEqual([refused.status, refused.json.error], [200, true], refused.text);
    assert.match(refused.json.errorMsg, /tool\.exe: support takes/);
    assert.equal((await readdir(dir)).length, 1);
    assert.ok(!(await api.ok('openTickets', {})).tickets.some((x: any) => x.subject === 'Tool'));
  });

  it("diagnoses a device from its state and connection history, and not another organization's", async () => {
    const healthy = await api.ok('triageDevice', { deviceUuid: site.cameras.Lobby });
    assert.match(healthy.message, /camera "Lobby" is online[\s\S]*firmware 2\.4\.1[\s\S]*No problem found/);
    assert.deepEqual(healthy.hardwareFailureEvents, []);
    assert.equal(healthy.uptimeWindows.length, 1);

    assert.equal((await control(server, '/simulate/connection', { device: site.cameras.Lobby, offline: true })).json.error, false);
    const down = await api.ok('triageDevice', { deviceUuid: site.cameras.Lobby, startDateSec: Math.floor(Date.now() / 1000) - 3600 });
    assert.match(down.message, /is offline since [\d-]+T[\d:.]+Z[\s\S]*lost its connection 1 time/);
    assert.deepEqual(
      down.hardwareFailureEvents.map((e: any) => [e.activity, e.deviceUuid, e.firmwareVersion]),
      [['CAMERA_DISCONNECTED', site.cameras.Lobby, '2.4.1']],
    );
    assert.ok(down.suggestedArticles.length > 0);
    assert.match(await api.refused('triageDevice', { deviceUuid: theirs.cameras['Far Cam'] }), /not found/);
  });
});

describe('GATEHOUSE_MAIL_FROM', () => {
  it('defaults to the senders of each mail, and refuses a value that is no address', () => {
    assert.deepEqual(loadConfig({}, {}).mailFrom, {
      support: 'Gatehouse Support <support@gatehouse.invalid>',
      shipping: 'Gatehouse Shipping <shipping@gatehouse.invalid>',
    });
    assert.deepEqual(loadConfig({}, { GATEHOUSE_MAIL_FROM: ' ops@operator.example ' }).mailFrom, {
      support: 'ops@operator.example',
      shipping: 'ops@operator.example',
    });
    for (const wrong of ['nobody', 'Ops <ops>', 'a@b.example\r\nBcc: x@y.example'])
      assert.throws(() => loadConfig({}, { GATEHOUSE_MAIL_FROM: wrong }), ConfigError);
  });
});
