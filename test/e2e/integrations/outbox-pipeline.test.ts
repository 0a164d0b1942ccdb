import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { randomToken } from '../../../src/ids.js';
import { recordOutcomes } from '../../../src/outbox/store.js';
import type { NewDelivery } from '../../../src/outbox/store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { FAST_OUTBOX } from './alerts.js';
import { BACKGROUND_APPLICATION } from '../../../src/store/database.js';

forEachDialect('Outbox: a pipeline of deliveries, recorded in batches', (dialect) => {
  let database: TestDatabase;
  let server: TestServer;
  let org: TestOrg;
  const receivers: Receiver[] = [];
  before(async () => {
    database = await createTestDatabase(dialect);
    // A long timeout: a receiver that hangs keeps its delivery in flight for the whole test.
    server = await startTestServer(dialect, { databaseUrl: database.url, env: { ...FAST_OUTBOX, GATEHOUSE_OUTBOX_TIMEOUT_MS: '60000' } });
    org = await server.createOrg('Pipeline Org');
  });
  after(async () => {
    await server.close();
    for (const r of receivers) await r.close();
    await database.drop();
  });
  const db = () => server.gatehouse.deps.store.db;
  const delivery = (key: string, targetUrl: string, fields: Partial<NewDelivery> = {}): NewDelivery => ({
    uuid: `pipe${key}`.padEnd(22, 'A'),
    org_uuid: org.orgUuid,
    kind: 'TEST',
    dedupe_key: key,
    target_url: targetUrl,
    headers: '{}',
    body: JSON.stringify({ key }),
    status: 'PENDING',
    attempts: 0,
    next_attempt_at_ms: Date.now(),
    claim_token: null,
    last_error: null,
    last_status_code: null,
    created_at_ms: Date.now(),
    updated_at_ms: Date.now(),
    delivered_at_ms: null,
    ...fields,
  });

  it('delivers the rest while one receiver hangs: a slow delivery holds up only itself', async () => {
    const slow = await startReceiver(() => 'hang');
    const fast = await startReceiver(() => ({ status: 200 }));
    receivers.push(slow, fast);
    // The hanging delivery is the first due, so that it is claimed with the first batch.
    const dueAtMs = Date.now() - 1000;
    await db()
      .insertInto('outbox_deliveries')
      .values([
        delivery('slow', `${slow.url}/hook`, { next_attempt_at_ms: dueAtMs }),
        ...Array.from({ length: 40 }, (_, i) => delivery(`fast${i}`, `${fast.url}/hook`, { next_attempt_at_ms: dueAtMs + 1 + i })),
      ])
      .execute();
    await fast.waitFor(40);
    const rows = await waitFor('the fast deliveries recorded', async () => {
      const found = await db().selectFrom('outbox_deliveries').selectAll().where('org_uuid', '=', org.orgUuid).orderBy('next_attempt_at_ms').execute();
      return found.filter((r) => r.status === 'DELIVERED').length === 40 ? found : undefined;
    });
    assert.equal(slow.requests.length, 1);
    assert.equal(rows.find((r) => r.dedupe_key === 'slow')?.status, 'IN_FLIGHT', 'the hanging delivery is still in flight');
    const attempts = await db().selectFrom('outbox_attempts').selectAll().execute();
    assert.equal(attempts.length, 40, 'one attempt logged per recorded delivery');
    assert.ok(attempts.every((a) => a.status_code === 200 && a.error === null && a.attempt === 1));
  });

  // SQLite has one connection and no pool: its background store is the store itself.
  if (dialect === 'postgres') {
    it("delivers while the API's transactions hold every connection of the pool", async () => {
      const receiver = await startReceiver(() => ({ status: 200 }));
      receivers.push(receiver);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const holders = Array.from({ length: 10 }, () =>
        server.gatehouse.deps.store.transaction(async (tx) => {
          await sql`select 1`.execute(tx);
          await gate;
        }),
      );
      try {
        // Every connection is taken: a read of the request path's pool now waits for the gate.
        const queued = sql`select 1`.execute(db()).then(() => 'answered');
        assert.equal(await Promise.race([queued, sleep(300).then(() => 'waiting')]), 'waiting');
        await server.gatehouse.deps.store.background.db
          .insertInto('outbox_deliveries')
          .values(delivery('pooled', `${receiver.url}/hook`))
          .execute();
        await receiver.waitFor(1, 5000);
        const row = await waitFor('the delivery recorded', async () => {
          const found = await server.gatehouse.deps.store.background.db
            .selectFrom('outbox_deliveries')
            .select('status')
            .where('dedupe_key', '=', 'pooled')
            .executeTakeFirstOrThrow();
          return found.status === 'DELIVERED' ? found : undefined;
        });
        assert.equal(row.status, 'DELIVERED');
        const { rows: lanes } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where application_name = ${BACKGROUND_APPLICATION} and datname = current_database()`.execute(server.gatehouse.deps.store.background.db);
        assert.ok(lanes[0]!.n >= 1, 'the worker used the background connections');
      } finally {
        release();
        await Promise.all(holders);
      }
    });
  }

  it('records a batch of outcomes only under the claims they were made with', async () => {
    const [first, second] = [randomToken(96), randomToken(96)];
    // Claimed, with leases far ahead: the worker leaves them alone.
    const claimed = { status: 'IN_FLIGHT' as const, attempts: 1, next_attempt_at_ms: Date.now() + 600_000 };
    await db()
      .insertInto('outbox_deliveries')
      .values([
        delivery('batchA', 'http://127.0.0.1:9/a', { ...claimed, claim_token: first }),
        delivery('batchB', 'http://127.0.0.1:9/b', { ...claimed, claim_token: first }),
        delivery('batchC', 'http://127.0.0.1:9/c', { ...claimed, claim_token: second }),
        delivery('batchD', 'http://127.0.0.1:9/d', { ...claimed, claim_token: second }),
        // Taken over by another instance after its lease ran out: this instance's outcome must not land.
        delivery('batchE', 'http://127.0.0.1:9/e', { ...claimed, claim_token: randomToken(96) }),
      ])
      .execute();
    const ids = Object.fromEntries(
      (await db().selectFrom('outbox_deliveries').select(['id', 'dedupe_key']).where('dedupe_key', 'like', 'batch%').execute()).map((r) => [
        r.dedupe_key,
        Number(r.id),
      ]),
    );
    const nowMs = Date.now();
    const recorded = await server.gatehouse.deps.store.transaction((tx) =>
      recordOutcomes(tx, nowMs, [
        { id: ids.batchA, claimToken: first, outcome: { status: 'DELIVERED', statusCode: 200 } },
        { id: ids.batchB, claimToken: first, outcome: { status: 'DELIVERED', statusCode: 202 } },
        { id: ids.batchC, claimToken: second, outcome: { status: 'DELIVERED', statusCode: 200 } },
        { id: ids.batchD, claimToken: second, outcome: { status: 'PENDING', statusCode: 503, error: 'HTTP 503', nextAttemptAtMs: nowMs + 600_000 } },
        { id: ids.batchE, claimToken: first, outcome: { status: 'DELIVERED', statusCode: 200 } },
      ]),
    );
    assert.deepEqual(
      [...recorded].sort((a, b) => a - b),
      [ids.batchA, ids.batchB, ids.batchC, ids.batchD].sort((a, b) => a - b),
    );
    const rows = Object.fromEntries(
      (await db().selectFrom('outbox_deliveries').selectAll().where('dedupe_key', 'like', 'batch%').execute()).map((r) => [r.dedupe_key, r]),
    );
    assert.deepEqual(
      ['batchA', 'batchB', 'batchC'].map((k) => [rows[k].status, rows[k].last_status_code, rows[k].claim_token, Number(rows[k].delivered_at_ms)]),
      [
        ['DELIVERED', 200, null, nowMs],
        ['DELIVERED', 202, null, nowMs],
        ['DELIVERED', 200, null, nowMs],
      ],
    );
    assert.deepEqual(
      [rows.batchD.status, rows.batchD.last_status_code, rows.batchD.last_error, Number(rows.batchD.next_attempt_at_ms), rows.batchD.claim_token],
      ['PENDING', 503, 'HTTP 503', nowMs + 600_000, null],
    );
    assert.equal(rows.batchE.status, 'IN_FLIGHT', 'the taken-over delivery is left to its new holder');
    assert.notEqual(rows.batchE.claim_token, null);
  });
});
