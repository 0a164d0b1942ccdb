import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateSelfSigned } from '../../../src/tls.js';
import { writeFileSync } from 'node:fs';
import { callApi } from '../../helpers/server.js';
import { lastJson, runCli, spawnServer } from '../../helpers/cli.js';

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
