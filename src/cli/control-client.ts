import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from '../admin-token.js';

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
  const url = `${server.replace(/\/+$/, '')}/_gatehouse${path}`;
  const token = adminTokenFor(dataDir);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach the server at ${server}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!answer || answer.error !== false) throw new Error(String(answer?.errorMsg ?? `the server at ${server} answered HTTP ${response.status}`));
  // A warning (an event the server ignored, and why) stays in the result; an empty one is left out.
  const { error: _error, errorMsg: _errorMsg, warningMsg, ...result } = answer;
  return warningMsg ? { ...result, warningMsg } : result;
}
