import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { seedSite } from '../../../src/domains/sites/service.js';
import { BodyGenerator, seededRandom } from '../../helpers/fuzz-bodies.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const BODIES_PER_OPERATION = 50;
const PARALLEL = 8;

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  users: [{ name: 'Ada', email: 'ada@example.com' }],
  people: [{ name: 'Grace' }],
  schedules: [{ name: 'Hours', intervals: [{ start: 480, stop: 1080 }] }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [
    { name: 'Button', kind: 'button', location: 'HQ' },
    { name: 'Air', kind: 'environmental', location: 'HQ' },
  ],
  doors: [{ name: 'Front', location: 'HQ', schedule: 'Hours', cameras: ['Lobby'], access: ['Ada'] }],
  audioGateways: [{ name: 'PA', location: 'HQ' }],
};

/**
 * Every operation of /openapi.json gets at least BODIES_PER_OPERATION bodies, schema-derived and hostile,
 * in process through the real REST app (app.inject): none may answer 5xx.
 */
forEachDialect('fuzz: every operation, schema-derived and hostile bodies, never a 5xx', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let ids: string[] = [];
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Fuzz Org');
    const seeded = await seedSite(server.gatehouse.deps, org.orgUuid, SITE);
    ids = Object.values(seeded).flatMap((byName) => Object.values(byName ?? {}));
  });
  after(() => server.close());

  it('answers every body of every operation below 500', { timeout: 600_000 }, async () => {
    const app = server.gatehouse.http;
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries<any>(doc.paths).filter(([, item]) => item.post);
    assert.ok(operations.length >= 50, `${operations.length} operations in /openapi.json`);
    const generator = new BodyGenerator(seededRandom(16), ids);
    const failures: string[] = [];
    let sent = 0;
    for (const [path, item] of operations) {
      const content = item.post.requestBody?.content ?? {};
      const schema = content['application/json']?.schema;
      const bodies = generator.bodies(schema, BODIES_PER_OPERATION);
      assert.ok(bodies.length >= BODIES_PER_OPERATION);
      for (let i = 0; i < bodies.length; i += PARALLEL) {
        await Promise.all(
          bodies.slice(i, i + PARALLEL).map(async (body) => {
            const response = await app.inject({
              method: 'POST',
              url: path,
              headers: { 'content-type': body.contentType, 'x-auth-apikey': org.apiKey },
              payload: body.payload,
            });
            sent++;
            if (response.statusCode >= 500) failures.push(`${path} [${body.label}] -> ${response.statusCode} ${response.body.slice(0, 120)}`);
          }),
        );
      }
    }
    assert.ok(sent >= operations.length * BODIES_PER_OPERATION);
    assert.deepEqual(failures, [], `${failures.length} of ${sent} requests answered 5xx`);
  });
});
