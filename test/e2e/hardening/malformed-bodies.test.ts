import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { readResult, startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const UPLOAD = '/api/faceRecognition/matchmaker/uploadFaceMatchmakers';
const FIND = '/api/faceRecognition/matchmaker/findFaceMatchmakersByOrg';

/** Sends `size` bytes of body after headers that announce them, all of it, and reads what comes back. */
function sendOversized(rest: string, apiKey: string, size: number): Promise<{ answer: string; writeError: string | null }> {
  const url = new URL(rest);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    let writeError: string | null = null;
    socket.on('data', (d) => (answer += d));
    socket.on('error', (e) => (writeError = e.message));
    socket.on('close', () => resolve({ answer, writeError }));
    socket.write(
      `POST /api/org/getOrgV2 HTTP/1.1\r\nHost: x\r\nx-auth-apikey: ${apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\nconnection: close\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!socket.write(part)) return void socket.once('drain', pump);
      }
    };
    pump();
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

forEachDialect('malformed bodies answer 400 (or 413), never 500', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Malformed Org');
  });
  after(() => server.close());

  const upload = async (contentType: string, body: string) =>
    readResult(await fetch(server.rest + UPLOAD, { method: 'POST', headers: { 'x-auth-apikey': org.apiKey, 'content-type': contentType }, body }));

  it('uploadFaceMatchmakers: no boundary, a body that is not multipart, or a part cut short is a 400 with the envelope, and stores nothing', async () => {
    const png = '\x89PNG\r\n\x1a\n';
    const cases: Array<[string, string]> = [
      ['multipart/form-data', 'hello'],
      ['multipart/form-data; boundary=XX', 'this is not a form'],
      [
        'multipart/form-data; boundary=XX',
        `--XX\r\nContent-Disposition: form-data; name="file"; filename="Ada.png"\r\nContent-Type: image/png\r\n\r\n${png}abc`,
      ],
      ['multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="file"; filename="Ada.png"\r\n'],
    ];
    for (const [contentType, body] of cases) {
      const r = await upload(contentType, body);
      assert.equal(r.status, 400, `${contentType} ${JSON.stringify(body.slice(0, 40))}: ${r.text}`);
      assert.equal(r.json.error, true);
      assert.match(r.json.errorMsg, /not a valid multipart\/form-data form/);
    }
    const stored = await server.call(FIND, {}, { key: org.apiKey });
    assert.equal(stored.json.error, false, stored.text);
    assert.deepEqual(stored.json.faceMatchmakers ?? [], []);
  });

  it('a JSON body that is not valid UTF-8 is a 400, not a silently repaired body', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const r = await readResult(
      await fetch(server.rest + '/api/org/getOrgV2', { method: 'POST', headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' }, body }),
    );
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /UTF-8/);
    const ok = await server.call('/api/org/getOrgV2', { x: 'caf\u00e9 \u{1F600}' }, { key: org.apiKey });
    assert.notEqual(ok.status, 400, 'valid UTF-8 is still accepted');
  });

  it('a body nested deeper than the limit is a 400 before any operation sees it; one at the limit is read', async () => {
    const nested = (levels: number) => '{"settings":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
    for (const [path, levels] of [
      ['/api/camera/updateCameraAIThresholds', 33],
      ['/api/org/updateSAMLSettings', 5000],
      ['/api/org/getOrgV2', 60_000],
    ] as const) {
      const r = await readResult(
        await fetch(server.rest + path, { method: 'POST', headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' }, body: nested(levels) }),
      );
      assert.equal(r.status, 400, `${path} at ${levels} levels: ${r.text.slice(0, 200)}`);
      assert.equal(r.json.error, true);
      assert.match(r.json.errorMsg, /nests deeper than 32 levels/);
    }
    const atLimit = await readResult(
      await fetch(server.rest + '/api/org/getOrgV2', {
        method: 'POST',
        headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' },
        body: nested(32),
      }),
    );
    assert.doesNotMatch(atLimit.text, /nests deeper/, 'a body at the limit reaches validation');
  });

  it('an over-limit body gets its 413 read by a client that sends all of it', async () => {
    const { answer, writeError } = await sendOversized(server.rest, org.apiKey, 8 * 1024 * 1024);
    assert.match(answer, /^HTTP\/1\.1 413 /, `answer: ${answer.slice(0, 80)}`);
    assert.match(answer, /Request body is too large/);
    assert.equal(writeError, null, 'the connection was not reset under the sending client');
  });
});
