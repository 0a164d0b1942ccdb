import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecrets, maskSecretsInText } from '../../src/http/journal.js';

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
