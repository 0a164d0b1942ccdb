/**
 * The console's calls: the platform's API with the organization's key (the same headers as any client), and the
 * control plane with the admin token. The session lives in this tab's sessionStorage only.
 */

export interface Session {
  apiKey?: string;
  adminToken?: string;
  orgUuid?: string;
  orgName?: string;
}

const SESSION_KEY = 'gatehouse.console.session';

export function loadSession(): Session {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '{}') as Session;
  } catch {
    return {};
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
}

export type Json = Record<string, unknown>;

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let json: (Json & { error?: boolean; errorMsg?: string }) | null = null;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = null;
  }
  if (!response.ok || !json || json.error) throw new Error(json?.errorMsg ?? (text || `HTTP ${response.status}`));
  return json as T;
}

/** An operation of the platform's API (POST + JSON), as the organization's key. */
export async function api<T = Json>(session: Session, path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-apikey': session.apiKey ?? '' },
    body: JSON.stringify(body),
  });
  return answer<T>(response);
}

/** A control-plane call (`/_gatehouse/...`) with the admin token. */
export async function control<T = Json>(session: Session, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.adminToken ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/_gatehouse${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return answer<T>(response);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
