import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { journalRequests, maskSecrets, maskSecretsInText, RequestJournal } from '../../src/http/journal.js';

describe('masking a long answer held as text', () => {
  it('masks as the parsed masking does, at any depth and whatever the value', () => {
    const value = {
      name: 'a "quoted" name: token',
      password: 'hunter2',
      nested: { clientSecret: { a: [1, '}'] }, token: 12, apiKey: null, pin: '', secret: false },
      list: [{ apiKey: 'k' }, { 'x\\"token': 'v' }],
      tokens: ['a', 'b'],
    };
    const text = JSON.stringify(value);
    assert.deepEqual(JSON.parse(maskSecretsInText(text)), maskSecrets(value));
    assert.equal(maskSecretsInText(JSON.stringify(value, null, 1)).replace(/\s/g, ''), JSON.stringify(maskSecrets(value)).replace(/\s/g, ''));
  });

  it('masks a value cut short to the end, and leaves text without secrets as it is', () => {
    assert.equal(maskSecretsInText('{"a":1,"password":"hunt'), '{"a":1,"password":"***"');
    assert.equal(maskSecretsInText('{"secret":{"a":[1,2'), '{"secret":"***"');
    assert.equal(maskSecretsInText('{"a":"b","c":[1,{"d":"pass'), '{"a":"b","c":[1,{"d":"pass');
  });
});

describe('the length a long answer is told with', () => {
  it("counts a text answer's characters and a Buffer answer's bytes, and says which", async () => {
    const app = Fastify();
    const journal = new RequestJournal(4);
    journalRequests(app, journal);
    const long = JSON.stringify({ password: 'hunter2', notes: 'é'.repeat(20_000) });
    app.post('/text', async (_request, reply) => reply.type('application/json').send(long));
    app.post('/bytes', async (_request, reply) => reply.type('application/json').send(Buffer.from(long, 'utf8')));
    try {
      for (const url of ['/text', '/bytes']) assert.equal((await app.inject({ method: 'POST', url, payload: {} })).statusCode, 200);
      const [bytes, text] = journal.list();
      assert.match(String(text!.responseBody), new RegExp(`\\.\\.\\. \\(${long.length} characters, cut\\)$`));
      assert.match(String(bytes!.responseBody), new RegExp(`\\.\\.\\. \\(${Buffer.byteLength(long)} bytes, cut\\)$`));
      assert.notEqual(long.length, Buffer.byteLength(long));
      for (const entry of [text, bytes]) assert.match(String(entry!.responseBody), /^\{"password":"\*\*\*"/);
    } finally {
      await app.close();
    }
  });
});
