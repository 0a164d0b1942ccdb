import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../scripts/lib/repo-root.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { errorCatalogue, fail } from '../../src/errors.js';

describe('the error catalogue', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/errors.md'), 'utf8');

  it('documents every code with its status in docs/errors.md', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
      assert.ok(row, `${code} is missing from docs/errors.md`);
      assert.ok(row.includes(`| ${entry.status} |`), `${code}: documented status differs from ${entry.status}`);
    }
  });

  it('builds errors with the entry status and message', () => {
    const e = fail('NOT_FOUND', 'Door');
    assert.equal(e.status, 200);
    assert.equal(e.message, 'Door not found');
    assert.equal(fail('INVALID_API_KEY').message, 'Invalid api key');
  });
});
