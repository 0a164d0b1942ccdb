import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client, type IStompSocket } from '@stomp/stompjs';
import WebSocket from 'ws';
import { createOrg } from '../../../src/domains/orgs/service.js';
import { createTestDatabase, postgresProblem, REDIS_TEST_URL, type TestDatabase } from '../../helpers/databases.js';
import { portOfUrl, startInstance } from '../../helpers/instances.js';
import { raiseChanges, StrictClient } from './helpers.js';
import { waitFor } from '../../helpers/wait.js';

const pgProblem = await postgresProblem();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const root = REPO_ROOT;
type Instance = Awaited<ReturnType<typeof startInstance>>;

/** What a resuming client saw: positions and entity uuids in arrival order. */
interface Seen {
  positions: number[];
  uuids: string[];
}

/** Asserts that `seen` holds exactly the changes `expected`, each once, in order, with consecutive positions. */
function assertExactly(seen: Seen, expected: string[], who: string): void {
  const start = seen.uuids.indexOf(expected[0]!);
  assert.ok(start >= 0, `${who} received the first change`);
  const uuids = seen.uuids.slice(start);
  const positions = seen.positions.slice(start);
  const lost = expected.filter((u) => !uuids.includes(u));
  const duplicated = uuids.length - new Set(uuids).size;
  assert.equal(lost.length, 0, `${who} lost ${lost.length} changes: ${lost.slice(0, 5).join(', ')}`);
  assert.equal(duplicated, 0, `${who} received ${duplicated} duplicates`);
  assert.deepEqual(uuids, expected, `${who} received them in order`);
  assert.deepEqual(
    positions,
    positions.map((_, i) => positions[0]! + i),
    `${who} saw consecutive positions`,
  );
}

describe(
  'stream resume on PostgreSQL and Redis, two instances',
  { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false },
  () => {
    let db: TestDatabase;
    let a: Instance;
    let b: Instance;
    let org: { orgUuid: string; apiKey: string };
    const children: ChildProcess[] = [];

    before(async () => {
      db = await createTestDatabase('postgres');
      a = await startInstance({ databaseUrl: db.url, busUrl: REDIS_TEST_URL });
      b = await startInstance({ databaseUrl: db.url, busUrl: REDIS_TEST_URL });
      org = await createOrg(a.deps, { name: 'Resume' });
    });
    after(async () => {
      for (const c of children) c.kill('SIGKILL');
      await b.stop();
      await a.stop();
      await db.drop();
    });

    it('a @stomp/stompjs client and the raw example client on instance b resume across its restart at 100 changes per second: 0 lost, 0 duplicated, in order', async () => {
      const wsUrl = b.urls.ws;
      const topic = `/topic/change/${org.orgUuid}`;
      // @stomp/stompjs: reconnects on its own; each (re)connect subscribes with the last position it saw.
      const stomp: Seen = { positions: [], uuids: [] };
      let last: string | null = null;
      let connects = 0;
      const client = new Client({
        reconnectDelay: 100,
        heartbeatIncoming: 10_000,
        heartbeatOutgoing: 10_000,
        webSocketFactory: () =>
          new WebSocket(`${wsUrl}?x-auth-scheme=api-token`, ['v12.stomp'], {
            headers: { 'x-auth-apikey': org.apiKey },
            rejectUnauthorized: false,
          }) as unknown as IStompSocket,
        onConnect: () => {
          connects += 1;
          client.subscribe(
            topic,
            (m) => {
              last = m.headers.position!;
              stomp.positions.push(Number(m.headers.position));
              stomp.uuids.push(JSON.parse(m.body).entityUuid);
            },
            last === null ? {} : { 'resume-after': last },
          );
        },
      });
      client.activate();
      // The raw client of examples/: a child process printing one JSON line per change.
      const raw: Seen = { positions: [], uuids: [] };
      const child = spawn(process.execPath, ['examples/resume-stream.mjs', wsUrl], {
        cwd: root,
        env: { ...process.env, GATEHOUSE_KEY: org.apiKey, ORG_UUID: org.orgUuid },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let pending = '';
      child.stdout!.on('data', (d: Buffer) => {
        pending += d.toString();
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          const change = JSON.parse(line);
          raw.positions.push(change.position);
          raw.uuids.push(change.entityUuid);
        }
      });
      try {
        // Both are subscribed once a change raised now reaches them.
        for (let i = 0; i < 50 && !(stomp.uuids.length > 0 && raw.uuids.length > 0); i++) {
          await raiseChanges(a.deps, org.orgUuid, [{ entityUuid: `warm-${i}` }]);
          await sleep(100);
        }
        assert.ok(stomp.uuids.length > 0 && raw.uuids.length > 0, 'both clients are subscribed');
        const expected: string[] = [];
        const port = portOfUrl(wsUrl);
        let restarted: Promise<void> | null = null;
        const start = Date.now();
        for (let i = 0; i < 300; i++) {
          // 100 changes per second, each its own write on instance a.
          const due = start + i * 10;
          if (due > Date.now()) await sleep(due - Date.now());
          expected.push(`c${i}`);
          await raiseChanges(a.deps, org.orgUuid, [{ entityUuid: `c${i}` }]);
          if (i === 100) {
            restarted = (async () => {
              const dataDir = b.dataDir;
              await b.close();
              b = await startInstance({ databaseUrl: db.url, busUrl: REDIS_TEST_URL, wsPort: port, dataDir });
            })();
          }
        }
        await restarted;
        await waitFor('both clients to receive the last change', () => stomp.uuids.includes('c299') && raw.uuids.includes('c299'), 20_000);
        await sleep(200);
        assert.ok(connects >= 2, 'the stompjs client reconnected');
        assertExactly(stomp, expected, '@stomp/stompjs');
        assertExactly(raw, expected, 'the raw example client');
      } finally {
        await client.deactivate();
        child.kill('SIGKILL');
      }
    });
  },
);

describe('two deployments on one Redis', { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false }, () => {
  it('each delivers 500 of its 500 changes, and none of the other', async () => {
    const dbs = [await createTestDatabase('postgres'), await createTestDatabase('postgres')];
    const deployments = [
      await startInstance({ databaseUrl: dbs[0]!.url, busUrl: REDIS_TEST_URL }),
      await startInstance({ databaseUrl: dbs[1]!.url, busUrl: REDIS_TEST_URL }),
    ];
    try {
      assert.notEqual(deployments[0]!.deps.bus.name, deployments[1]!.deps.bus.name, 'each store names its own namespace');
      const orgs = await Promise.all(deployments.map((d, i) => createOrg(d.deps, { name: `Deployment ${i}` })));
      const clients = await Promise.all(
        deployments.map(async (d, i) => {
          const c = await StrictClient.connect(d.urls.ws, { key: orgs[i]!.apiKey, scheme: 'api-token' });
          c.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${orgs[i]!.orgUuid}\nreceipt:s\n\n\0`);
          assert.equal((await c.next()).command, 'RECEIPT');
          return c;
        }),
      );
      const messages = (c: StrictClient) => c.frames.filter((f) => f.command === 'MESSAGE').map((f) => JSON.parse(f.body).entityUuid as string);
      // Interleaved: 50 writes of 10 changes on each deployment, concurrently.
      const expected = deployments.map((_, d) => Array.from({ length: 500 }, (_, i) => `d${d}-${i}`));
      await Promise.all(
        deployments.map(async (dep, d) => {
          for (let w = 0; w < 50; w++)
            await raiseChanges(
              dep.deps,
              orgs[d]!.orgUuid,
              expected[d]!.slice(w * 10, w * 10 + 10).map((entityUuid) => ({ entityUuid })),
            );
        }),
      );
      for (const [d, c] of clients.entries()) await c.until(() => messages(c).length >= 500, `deployment ${d}'s 500 changes`, 15_000);
      await sleep(300);
      for (const [d, c] of clients.entries()) {
        assert.deepEqual(messages(c), expected[d], `deployment ${d} delivered exactly its 500 changes, in order`);
        c.close();
      }
    } finally {
      for (const d of deployments) await d.stop();
      for (const db of dbs) await db.drop();
    }
  });
});
