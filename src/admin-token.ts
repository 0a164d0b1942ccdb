import { join } from 'node:path';
import type { Config } from './config.js';
import { readOrCreateSecretFile } from './data-dir.js';
import { randomToken } from './ids.js';

/** The file in the data dir that holds the control API's admin token (when GATEHOUSE_ADMIN_TOKEN is unset). */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** The admin token: GATEHOUSE_ADMIN_TOKEN, else generated once into the data dir. */
export function adminToken(config: Pick<Config, 'adminToken' | 'dataDir'>): string {
  return config.adminToken ?? readOrCreateSecretFile(config.dataDir, ADMIN_TOKEN_FILE, () => randomToken(192));
}

/** Where the admin token comes from, to print (never the token itself). */
export function adminTokenSource(config: Pick<Config, 'adminToken' | 'dataDir'>): string {
  return config.adminToken ? 'GATEHOUSE_ADMIN_TOKEN' : join(config.dataDir, ADMIN_TOKEN_FILE);
}
