import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../secrets.js';
import type { Store } from './database.js';

const NAME = 'secret-key';
const IDENTITY = 'gatehouse:secret-key-check';

export class SecretKeyMismatch extends Error {
  constructor() {
    super(
      "The secret key (GATEHOUSE_SECRET_KEY, or secret.key in the data dir) cannot decrypt this store's secrets: they were sealed with another key. " +
        'Every instance on one store must use the same GATEHOUSE_SECRET_KEY. Refusing to start.',
    );
    this.name = 'SecretKeyMismatch';
  }
}

/**
 * Checks that `secrets` opens what the store's first instance sealed; on a store that has no check value yet,
 * seals one (the first instance's key is the store's). Throws SecretKeyMismatch otherwise.
 */
export async function verifySecretKey(store: Store, secrets: SecretBox, nowMs: number): Promise<void> {
  const find = () => store.db.selectFrom('secret_key_checks').select('sealed').where('name', '=', NAME).executeTakeFirst();
  let row = await find();
  if (!row) {
    const sealed = secrets.seal(randomBytes(16).toString('hex'), IDENTITY);
    await store.db
      .insertInto('secret_key_checks')
      .values({ name: NAME, sealed, created_at_ms: nowMs })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    // Two instances starting at once: whichever inserted first is the store's key.
    row = await find();
  }
  try {
    secrets.open(row!.sealed, IDENTITY);
  } catch {
    throw new SecretKeyMismatch();
  }
}
