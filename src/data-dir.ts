import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A secret that lives in the data dir when no environment variable gives it: read it, or create it
 * with `make` (mode 0600) on first use, so that every process on the same data dir shares it.
 */
export function readOrCreateSecretFile(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const value = make();
  try {
    writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
    return value;
  } catch {
    // Another process created it first: use theirs.
    return readFileSync(file, 'utf8').trim();
  }
}
