import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateSelfSigned } from '../../../src/tls.js';
import { writeFileSync } from 'node:fs';
import { callApi } from '../../helpers/server.js';
import { lastJson, runCli, spawnServer } from '../../helpers/cli.js';
import { StrictClient } from '../streaming/helpers.js';

describe('gatehouse CLI on the store of a running server', () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof spawnServer>>;
  let rest: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gh-cli-'));
    server = await spawnServer(['--data-dir', dataDir, '--http-port', '0', '--media-port', '0', '--ws-port', '0']);
    rest = /REST:\s+(\S+)/.exec(server.output())![1];
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('start prints the REST, media and WebSocket URLs and the demo key, which works', async () => {
    const out = server.output();
    assert.match(out, /Media:\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(out, /WebSocket:\s+wss:\/\/127\.0\.0\.1:\d+\/websocket/);
    const key = /Demo API key:\s+(\S+)/.exec(out)![1];
    const r = await callApi(rest, '/api/org/getOrgV2', {}, { key });
    assert.equal(r.status, 200);
    assert.equal(r.json.org.name, 'Demo Organization');
  });

  it('org create --json prints orgUuid and apiKey that the running server accepts', async () => {
    const r = await runCli(['org', 'create', '--name', 'CLI Org', '--json', '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.stderr);
    const created = lastJson(r.stdout);
    const answer = await callApi(rest, '/api/org/getOrgV2', {}, { key: created.apiKey });
    assert.equal(answer.json.orgUuid, created.orgUuid);
  });

  it('key create issues standard and partner keys; partner grant lets the partner act for the client', async () => {
    const client = lastJson((await runCli(['org', 'create', '--name', 'Client', '--json', '--data-dir', dataDir])).stdout);
    const partner = lastJson((await runCli(['org', 'create', '--name', 'Partner', '--json', '--data-dir', dataDir])).stdout);
    const extra = lastJson((await runCli(['key', 'create', '--org', client.orgUuid, '--json', '--data-dir', dataDir])).stdout);
    assert.equal((await callApi(rest, '/api/org/getOrgV2', {}, { key: extra.apiKey })).json.orgUuid, client.orgUuid);

    const partnerKey = lastJson((await runCli(['key', 'create', '--org', partner.orgUuid, '--partner', '--json', '--data-dir', dataDir])).stdout).apiKey;
    const denied = await callApi(rest, '/api/org/getOrgV2', {}, { key: partnerKey, scheme: 'partner-api-token', org: client.orgUuid });
    assert.equal(denied.status, 403);
    const grant = await runCli(['partner', 'grant', '--partner-org', partner.orgUuid, '--client-org', client.orgUuid, '--data-dir', dataDir]);
    assert.equal(grant.code, 0, grant.stderr);
    const allowed = await callApi(rest, '/api/org/getOrgV2', {}, { key: partnerKey, scheme: 'partner-api-token', org: client.orgUuid });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.json.orgUuid, client.orgUuid);
  });

  it('key create --cert registers the certificate fingerprint', async () => {
    const org = lastJson((await runCli(['org', 'create', '--name', 'Cert', '--json', '--data-dir', dataDir])).stdout);
    const certFile = join(dataDir, 'client.pem');
    writeFileSync(certFile, (await generateSelfSigned('client')).cert);
    const r = await runCli(['key', 'create', '--org', org.orgUuid, '--cert', certFile, '--json', '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(lastJson(r.stdout).apiKey, /^us_/);
  });

  it('key create --expires-in, key list and key revoke: the running server stops taking the key and closes its stream session', async () => {
    const org = lastJson((await runCli(['org', 'create', '--name', 'Lifetimes', '--json', '--data-dir', dataDir])).stdout);
    const before = Date.now();
    const created = lastJson((await runCli(['key', 'create', '--org', org.orgUuid, '--expires-in', '2h', '--json', '--data-dir', dataDir])).stdout);
    assert.ok(created.expiresAtMs >= before + 2 * 3_600_000 && created.expiresAtMs <= Date.now() + 2 * 3_600_000, `expiresAtMs ${created.expiresAtMs}`);
    assert.equal((await callApi(rest, '/api/org/getOrgV2', {}, { key: created.apiKey })).status, 200, 'the key works, and the server caches it');

    const listed = lastJson((await runCli(['key', 'list', '--org', org.orgUuid, '--json', '--data-dir', dataDir])).stdout).keys;
    assert.equal(listed.length, 2, 'the first key of the organization and the new one');
    const entry = listed.find((k: any) => k.keyId === created.keyId);
    assert.deepEqual(entry, {
      keyId: created.keyId,
      kind: 'standard',
      userUuid: org.userUuid,
      hint: created.apiKey.slice(-4),
      certificate: false,
      createdAtMs: entry.createdAtMs,
      expiresAtMs: created.expiresAtMs,
      revokedAtMs: null,
    });
    assert.ok(!JSON.stringify(listed).includes(created.apiKey.slice(3, 20)), 'never the key itself');

    const ws = /WebSocket:\s+(\S+)/.exec(server.output())![1];
    const session = await StrictClient.connect(ws, { key: created.apiKey, scheme: 'api-token' });
    const revoke = await runCli(['key', 'revoke', '--org', org.orgUuid, '--key', created.keyId, '--json', '--data-dir', dataDir]);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.deepEqual(lastJson(revoke.stdout), { keyId: created.keyId, revoked: true });
    // The server runs the in-process bus, which the CLI cannot reach: its key check (every 5 s) and key-cache
    // TTL (5 s) take over.
    assert.equal((await session.expectErrorAndClose(8000)).headers.message, 'API token revoked');
    const deadline = Date.now() + 8000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await callApi(rest, '/api/org/getOrgV2', {}, { key: created.apiKey })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 403);

    const again = await runCli(['key', 'revoke', '--org', org.orgUuid, '--key', created.keyId, '--json', '--data-dir', dataDir]);
    assert.deepEqual(lastJson(again.stdout), { keyId: created.keyId, revoked: false }, 'revoking twice is harmless');
    const relisted = lastJson((await runCli(['key', 'list', '--org', org.orgUuid, '--json', '--data-dir', dataDir])).stdout).keys;
    assert.ok(relisted.find((k: any) => k.keyId === created.keyId).revokedAtMs >= before);
  });

  it('key create and key revoke refuse a bad duration and an unknown key with exit code 1', async () => {
    const org = lastJson((await runCli(['org', 'create', '--name', 'Refusals', '--json', '--data-dir', dataDir])).stdout);
    // The durations themselves are tested in test/unit/cli-duration.test.ts.
    const r = await runCli(['key', 'create', '--org', org.orgUuid, '--expires-in', 'soon', '--json', '--data-dir', dataDir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /"soon" is not a duration: a positive number and s, m, h or d/);
    const unknown = await runCli(['key', 'revoke', '--org', org.orgUuid, '--key', 'AAAAAAAAAAAAAAAAAAAAAA', '--data-dir', dataDir]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /API key AAAAAAAAAAAAAAAAAAAAAA of organization .* not found/);
    const list = await runCli(['key', 'list', '--org', 'AAAAAAAAAAAAAAAAAAAAAA', '--data-dir', dataDir]);
    assert.equal(list.code, 1);
    assert.match(list.stderr, /Organization .* not found/);
  });

  it('fails with a clear message and exit code 1 on bad input', async () => {
    const unknown = await runCli(['key', 'create', '--org', 'AAAAAAAAAAAAAAAAAAAAAA', '--json', '--data-dir', dataDir]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Organization .* not found/);
    assert.doesNotMatch(unknown.stderr, /\n\s+at /, 'no stack trace');
    const badRegion = await runCli(['org', 'create', '--name', 'X', '--region', 'mars', '--data-dir', dataDir]);
    assert.equal(badRegion.code, 1);
    assert.match(badRegion.stderr, /region must be one of us, eu/);
  });
});
