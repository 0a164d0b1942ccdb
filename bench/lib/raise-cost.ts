// What one raised policy alert costs the store, end to end: the transactions and statements run from the raise to
// its rule's webhook delivered (the alert, the general rule's firing, the delivery's enqueue and attempt), counted at
// the drivers (better-sqlite3's Statement, pg's Client.query) while alerts are raised one after the other in an
// organization set up as bench/busy-org.bench.ts sets one up. Bench-only instrumentation; loopback only; bounded
// by the count.
//   npx tsx bench/lib/raise-cost.ts [sqlite|postgres] [alerts, 200] [dist folder, dist/]
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onEveryStatement } from './driver-hooks.js';
import { seedMotionWebhookOrg } from './motion-webhook-org.js';
import { createTestDatabase, type TestDialect } from '../../test/helpers/databases.js';

const dialect = (process.argv[2] ?? 'sqlite') as TestDialect;
const count = Number(process.argv[3] ?? 200);
const dist = pathToFileURL(resolve(process.argv[4] ?? 'dist') + '/').href;
const load = <M>(path: string) => import(new URL(path, dist).href) as Promise<M>;

/** Statements by kind: transaction control (begin, commit, savepoint...) and the rest, by their first words. */
const counts = { begin: 0, commit: 0, savepoint: 0, statements: 0 };
const byKind = new Map<string, number>();
let counting = false;
function note(text: string): void {
  if (!counting) return;
  const head = text.trim().slice(0, 80).toLowerCase();
  if (/^(begin|start transaction)\b/.test(head)) counts.begin++;
  else if (/^commit\b/.test(head)) counts.commit++;
  else if (/^(savepoint|release|rollback)\b/.test(head)) counts.savepoint++;
  else {
    counts.statements++;
    const lower = text.toLowerCase();
    const verb = /^\s*(with|insert into|update|delete from|select)\b/.exec(lower)?.[1] ?? head.slice(0, 12);
    const table = /\b(?:from|into|update)\s+"?(\w+)"?/.exec(lower.replace(/^\s*with\b[\s\S]*?\)\s*(?=insert|select|update|delete)/, ''))?.[1] ?? '';
    const key = `${verb} ${table}`;
    byKind.set(key, (byKind.get(key) ?? 0) + 1);
  }
}
onEveryStatement((sql) => note(sql));

const { startGatehouse } = await load<typeof import('../../src/app.js')>('app.js');
const { loadConfig } = await load<typeof import('../../src/config.js')>('config.js');
const { createOrg } = await load<typeof import('../../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { createLogger } = await load<typeof import('../../src/logger.js')>('logger.js');
const { seedSite } = await load<typeof import('../../src/domains/sites/service.js')>('domains/sites/service.js');
const { raisePolicyAlert } = await load<typeof import('../../src/domains/events/alerts/service.js')>('domains/events/alerts/service.js');
const { systemActor } = await load<typeof import('../../src/deps.js')>('deps.js');

let delivered = 0;
let waiter: (() => void) | null = null;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered++;
    waiter?.();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const database = await createTestDatabase(dialect);
const dataDir = mkdtempSync(join(tmpdir(), 'gh-cost-'));
const gatehouse = await startGatehouse(
  loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, { GATEHOUSE_ALLOW_PRIVATE_OUTBOUND: '1' }),
  { log: createLogger('silent') },
);
try {
  const { deps } = gatehouse;
  const org = await seedMotionWebhookOrg({ createOrg, seedSite }, deps, gatehouse.urls.rest, {
    name: 'Cost Org',
    cameras: 20,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  });
  const { cameras } = org;
  const actor = systemActor(org.orgUuid, 'bench.cost');
  const raiseOne = async (i: number) => {
    const before = delivered;
    const arrived = new Promise<void>((r) => (waiter = () => delivered > before && r()));
    await raisePolicyAlert(deps, actor, { deviceUuid: cameras[i % cameras.length]!, policyAlertTriggers: ['MOTION'], textDescription: `Motion ${i}` });
    await arrived;
  };
  for (let i = 0; i < 20; i++) await raiseOne(i); // warm-up
  await new Promise((r) => setTimeout(r, 300)); // the warm-up's closing writes
  counting = true;
  for (let i = 0; i < count; i++) await raiseOne(i);
  await new Promise((r) => setTimeout(r, 300)); // the last firing's record closed
  counting = false;
  const per = (n: number) => (n / count).toFixed(2);
  console.log(
    `${dialect}, ${count} alerts raised one at a time, each to its webhook: per alert ${per(counts.begin)} BEGIN, ${per(counts.commit)} COMMIT, ` +
      `${per(counts.savepoint)} savepoint/release/rollback, ${per(counts.statements)} other statements`,
  );
  for (const [kind, n] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${per(n).padStart(6)}  ${kind}`);
} finally {
  await gatehouse.close();
  receiver.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
