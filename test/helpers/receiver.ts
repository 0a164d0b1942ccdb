import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/**
 * How the receiver answers a request: a status and body, or `hang` to keep it open until the receiver closes;
 * a promise of either answers when it settles (a test holds a request open while it changes the server).
 */
export type Answer = { status: number; body?: unknown } | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback playing a third party (a chat webhook, the badge system's API): it records
 * every request and answers with `answer(request, index)`.
 */
export async function startReceiver(
  answer: (request: ReceivedRequest, index: number) => Answer | Promise<Answer> = () => ({ status: 200, body: { ok: true } }),
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      requests.push(request);
      for (const w of waiters.splice(0)) w();
      const reply = (a: Answer) => {
        if (a === 'hang') hanging.add(res);
        else res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body ?? {}));
      };
      const a = answer(request, requests.length - 1);
      if (a instanceof Promise) {
        hanging.add(res);
        void a.then((settled) => {
          hanging.delete(res);
          if (!res.destroyed) reply(settled);
        });
      } else reply(a);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} request(s) within ${timeoutMs} ms, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
