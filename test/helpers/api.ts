import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { TestDialect } from './databases.js';
import { startTestServer, type CallOptions, type CallResult, type TestServer, type TestServerOptions } from './server.js';

/**
 * The request helpers every end-to-end test shares: a raw call, a call that must succeed and a call that must be
 * refused, for one key; and the server of a suite. Import these rather than writing a local `call` / `ok` /
 * `refused`.
 */
export interface Api {
  /** The raw answer (any status). */
  call<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<CallResult<T>>;
  /** The answer's JSON, once it is HTTP 200 with `error: false`. */
  ok<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  /** The answer's `errorMsg`, once it is a domain refusal: HTTP 200 with `error: true`. */
  refused(path: string, body?: unknown, options?: CallOptions): Promise<string>;
}

type Lazy<T> = T | (() => T);
const valueOf = <T>(lazy: Lazy<T>): T => (typeof lazy === 'function' ? (lazy as () => T)() : lazy);

/**
 * The API as one key sees it. The server and the key may be getters, so that a suite can make them in its
 * `before` and still build its helpers at the top: `const { ok, refused } = apiAs(server, () => site.org.apiKey)`.
 * A call's own `options.key` wins over the helper's. With a `base` (`'/api/event'`), a path without a leading
 * slash names an operation of that family (`ok('getClipWithProgress', ...)`).
 */
export function apiAs(server: Lazy<TestServer>, key: Lazy<string>, base?: string): Api {
  const call = <T = any>(path: string, body: unknown = {}, options: CallOptions = {}) =>
    valueOf(server).call<T>(base && !path.startsWith('/') ? `${base}/${path}` : path, body, { key: valueOf(key), ...options });
  return {
    call,
    async ok(path, body = {}, options = {}) {
      const r = await call(path, body, options);
      assertOk(r);
      return r.json;
    },
    async refused(path, body = {}, options = {}) {
      const r = await call(path, body, options);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json?.error, true, r.text);
      return r.json.errorMsg as string;
    },
  };
}

/** Asserts success: HTTP 200 and `error: false`. */
export function assertOk(r: CallResult): void {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json?.error, false, r.text);
}

/** Asserts a domain refusal: HTTP 200, `error: true` and the message. */
export function assertFails(r: CallResult, message: string | RegExp): void {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json?.error, true, r.text);
  if (typeof message === 'string') assert.equal(r.json.errorMsg, message);
  else assert.match(r.json.errorMsg, message);
}

/**
 * The suite's server: a real Gatehouse of the dialect on loopback, started before the suite's tests and closed
 * after them. Call the getter inside hooks and tests.
 */
export function useTestServer(dialect: TestDialect, options: TestServerOptions = {}): () => TestServer {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer(dialect, options);
  });
  after(async () => {
    await server?.close();
  });
  return () => server ?? assert.fail('the test server is started by the suite before its tests');
}
