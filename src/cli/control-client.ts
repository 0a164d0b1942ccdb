import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from '../http/control.js';

/** The admin token of the server whose data dir (or environment) this command shares. */
export function adminTokenFor(dataDir: string): string {
  if (process.env.GATEHOUSE_ADMIN_TOKEN) return process.env.GATEHOUSE_ADMIN_TOKEN;
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  if (!existsSync(file)) throw new Error(`no admin token: set GATEHOUSE_ADMIN_TOKEN or point --data-dir at the server's data dir (${file} is missing)`);
  return readFileSync(file, 'utf8').trim();
}

/**
 * Posts to a running server's control API (`/_gatehouse/...`) and answers the body without its envelope;
 * a refusal becomes an Error carrying the server's errorMsg.
 */
export async function postControl(
  server: string,
  dataDir: string,
  path: string,
  body: string,
  contentType = 'application/json',
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.replace(/\/+$/, '')}/_gatehouse${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminTokenFor(dataDir)}`, 'content-type': contentType },
    body,
  });
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!answer || answer.error !== false) throw new Error(String(answer?.errorMsg ?? `the server answered HTTP ${response.status}`));
  const { error: _error, errorMsg: _errorMsg, warningMsg: _warningMsg, ...result } = answer;
  return result;
}
