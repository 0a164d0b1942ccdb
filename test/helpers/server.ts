import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatehouse, type Gatehouse } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createApiKey, createOrg, grantPartner } from '../../src/domains/orgs/service.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { createTestDatabase, type TestDialect } from './databases.js';
import { assertResponseWalk, walkResponses } from './response-walk.js';

export interface CallOptions {
  key?: string;
  scheme?: string;
  org?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
}

/** POSTs a JSON body to an operation the way the platform's clients do. */
export async function callApi<T = any>(baseUrl: string, path: string, body: unknown = {}, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.key) headers['x-auth-apikey'] = options.key;
  if (options.scheme) headers['x-auth-scheme'] = options.scheme;
  if (options.org) headers['x-auth-org'] = options.org;
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  if (!baseUrl.startsWith('http:')) return readResult(await fetch(baseUrl + path, { method: 'POST', headers, body: payload }));
  return postPlain(baseUrl + path, headers, payload);
}

// Node's http client over kept-alive connections, not fetch: a real HTTP request either way, but fetch's streams
// cost a test about three times the CPU per call (a sixth of a run of test/e2e/http/every-operation.test.ts).
const keptAlive = new Agent({ keepAlive: true });

function postPlain<T>(url: string, headers: Record<string, string>, payload: string): Promise<CallResult<T>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: keptAlive, headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        resolve(resultOf(res.statusCode ?? 0, answer, Buffer.concat(chunks).toString()));
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Reads an answer whole: its status, headers, text and (when the text is JSON) the parsed body. */
export async function readResult<T = any>(response: Response): Promise<CallResult<T>> {
  return resultOf(response.status, response.headers, await response.text());
}

function resultOf<T>(status: number, headers: Headers, text: string): CallResult<T> {
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, json, text };
}

export interface TestOrg {
  orgUuid: string;
  userUuid: string;
  apiKey: string;
}

export interface TestServer {
  gatehouse: Gatehouse;
  config: Config;
  rest: string;
  /** Calls an operation with the given key (default: the first org's key). */
  call<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<CallResult<T>>;
  createOrg(name?: string): Promise<TestOrg>;
  createPartnerKey(partnerOrgUuid: string, clientOrgUuids: string[]): Promise<string>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  region?: 'us' | 'eu';
  busUrl?: string;
  httpTls?: boolean;
  /** Share a database with another server (two instances); otherwise a fresh one is made and dropped. */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** The server's logger (default: silent, or GATEHOUSE_TEST_LOG's level). */
  log?: Logger;
}

/** The one secret key of every test instance: instances that share a store must share their key. */
export const TEST_SECRET_KEY = '67617465686f7573652d746573742d7365637265742d6b65792d303030303030';

/** A real Gatehouse on loopback (ports 0) over a fresh database of the dialect. */
export async function startTestServer(dialect: TestDialect, options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? null : await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-data-'));
  const config = loadConfig(
    {
      region: options.region ?? 'us',
      dataDir,
      httpPort: 0,
      mediaPort: 0,
      wsPort: 0,
      database: options.databaseUrl ?? database!.url,
      bus: options.busUrl ?? 'memory:',
      httpTls: options.httpTls ?? false,
      seed: false,
    },
    // One secret key for every test server, as instances sharing a store must (each refuses a store sealed with another key).
    { GATEHOUSE_SECRET_KEY: TEST_SECRET_KEY, ...options.env },
  );
  const gatehouse = await startGatehouse(config, { log: options.log ?? createLogger(process.env.GATEHOUSE_TEST_LOG ?? 'silent') });
  walkResponses(gatehouse.http);
  const rest = gatehouse.urls.rest;
  let defaultKey: string | undefined;
  const server: TestServer = {
    gatehouse,
    config,
    rest,
    call: (path, body = {}, callOptions = {}) => callApi(rest, path, body, { key: defaultKey, ...callOptions }),
    async createOrg(name = 'Test Org') {
      const org = await createOrg(gatehouse.deps, { name });
      defaultKey ??= org.apiKey;
      return org;
    },
    async createPartnerKey(partnerOrgUuid, clientOrgUuids) {
      for (const client of clientOrgUuids) await grantPartner(gatehouse.deps, { partnerOrgUuid, clientOrgUuid: client });
      return (await createApiKey(gatehouse.deps, { orgUuid: partnerOrgUuid, kind: 'partner' })).apiKey;
    },
    async close() {
      await gatehouse.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      assertResponseWalk();
    },
  };
  return server;
}
