import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callApi, readResult, type CallResult, type TestServer } from '../../helpers/server.js';

/** The admin token a test server generated into its data dir. */
export function adminTokenOf(server: TestServer): string {
  return server.config.adminToken ?? readFileSync(join(server.config.dataDir, 'admin-token'), 'utf8').trim();
}

/** Calls the control API (`/_gatehouse/...`) with the server's admin token, or the one given. */
export function control<T = any>(
  server: TestServer,
  path: string,
  body: unknown = {},
  options: { token?: string | null; contentType?: string } = {},
): Promise<CallResult<T>> {
  const token = options.token === undefined ? adminTokenOf(server) : options.token;
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return callApi<T>(server.rest, `/_gatehouse${path}`, body, { headers });
}

/** GET or DELETE on the request journal (`/_gatehouse/requests`), with the admin token unless `token` says otherwise. */
export async function journal(server: TestServer, query = '', method: 'GET' | 'DELETE' = 'GET', token?: string | null): Promise<CallResult> {
  const t = token === undefined ? adminTokenOf(server) : token;
  const headers: Record<string, string> = t === null ? {} : { authorization: `Bearer ${t}` };
  return readResult(await fetch(`${server.rest}/_gatehouse/requests${query}`, { method, headers }));
}
