import { createHash, timingSafeEqual } from 'node:crypto';
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { adminToken } from '../admin-token.js';
import type { Deps } from '../deps.js';
import { accessSimulateRoutes } from '../domains/access/control-routes.js';
import { deviceSimulateRoutes } from '../domains/devices/control-routes.js';
import { sensorSimulateRoutes } from '../domains/events/sensor-control-routes.js';
import { eventSimulateRoutes } from '../domains/events/control-routes.js';
import { createApiKey, createOrg } from '../domains/orgs/service.js';
import { ruleSimulateRoutes } from '../domains/rules/control-routes.js';
import { integrationSimulateRoutes } from '../domains/integrations/control-routes.js';
import { siteControlRoutes } from '../domains/sites/control-routes.js';
import { guestSimulateRoutes } from '../domains/guests/control-routes.js';
import { fail } from '../errors.js';
import { Field, ResponseOf, Ruuid } from '../schemas/common.js';
import { resetStore, restoreSnapshot, saveSnapshot } from '../store/snapshot.js';
import { hidden, type ControlPlugin } from '../edge/control-plugin.js';
import { onFirstCall } from './lazy-compilers.js';
import { flagErrorFormatter } from './simulate-flags.js';
import type { ApiApp } from '../edge/operation.js';
import type { RequestJournal } from './journal.js';

/**
 * The control API under /_gatehouse/ on the REST port: for tests and tools (seeding, simulating devices,
 * resetting state). Every route needs the admin token as `Authorization: Bearer <token>`, and none appears
 * in the public OpenAPI document. Domains add their routes (for example `/_gatehouse/simulate/...`) in
 * their own control-routes.ts, listed in `controlPlugins` below.
 */

/** Compares digests, so the comparison takes the same time whatever the presented token's length or content. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected)) && presented.length > 0;
}

const Name = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
const StateResult = ResponseOf({ name: Field(Type.String()), tables: Field(Type.Integer()), rows: Field(Type.Integer()) });

/**
 * After a reset or restore, every in-memory position follows the store: this instance's key cache at once, and
 * on every instance of the bus (this one included) the stream's sequencers, relock and relay timers and the
 * outbox, through `store.replaced`.
 */
async function storeReplaced(deps: Deps, kind: 'reset' | 'restore'): Promise<void> {
  deps.keyCache.clear();
  await deps.bus.publish('store.replaced', { kind }).catch((err) => deps.log.error({ err }, 'announcing the store reset failed'));
}

/** Organizations and whole-store state. */
const stateControlRoutes: ControlPlugin = (app, deps) => {
  app.post(
    '/orgs',
    { schema: { ...hidden, body: Name, response: { 200: ResponseOf({ orgUuid: Field(Ruuid()), apiKey: Field(Type.String()), userUuid: Field(Ruuid()) }) } } },
    async (request) => {
      const created = await createOrg(deps, { name: request.body.name }, 'control.org.create');
      return { error: false, ...created };
    },
  );
  app.post(
    '/orgs/:org/keys',
    {
      schema: {
        ...hidden,
        params: Type.Object({ org: Ruuid() }),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: ResponseOf({ apiKey: Field(Type.String()), keyId: Field(Type.String()) }) },
      },
    },
    async (request) => ({ error: false, ...(await createApiKey(deps, { orgUuid: request.params.org, kind: 'standard' })) }),
  );
  app.post('/state/reset', { schema: { ...hidden, response: { 200: ResponseOf({}) } } }, async () => {
    await resetStore(deps.store);
    await storeReplaced(deps, 'reset');
    return { error: false };
  });
  app.post('/state/snapshot', { schema: { ...hidden, body: Name, response: { 200: StateResult } } }, async (request) => ({
    error: false,
    ...(await saveSnapshot(deps.store, deps.config.dataDir, request.body.name, deps.clock.now())),
  }));
  app.post('/state/restore', { schema: { ...hidden, body: Name, response: { 200: StateResult } } }, async (request) => {
    const restored = await restoreSnapshot(deps.store, deps.config.dataDir, request.body.name);
    await storeReplaced(deps, 'restore');
    return { error: false, ...restored };
  });
};

const JournalQuery = Type.Object(
  {
    path: Type.Optional(Type.String({ maxLength: 500 })),
    status: Type.Optional(Type.String({ pattern: '^([1-5][0-9][0-9]|[1-5]xx)$' })),
    org: Type.Optional(Type.String({ maxLength: 100 })),
    // The query string is not coerced on this port: the limit is read from its digits.
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
  },
  { additionalProperties: false },
);

/** The request journal (src/http/journal.ts): read newest first, filtered; or cleared. */
function journalControlRoutes(journal: RequestJournal): ControlPlugin {
  return (app) => {
    app.get('/requests', { schema: { ...hidden, querystring: JournalQuery } }, async (request) => {
      const { limit, ...filter } = request.query;
      const requests = journal.list({ ...filter, limit: limit === undefined ? undefined : Number(limit) });
      return { error: false, size: journal.size, held: journal.count(), requests };
    });
    app.delete('/requests', { schema: { ...hidden, response: { 200: ResponseOf({}) } } }, async () => {
      journal.clear();
      return { error: false };
    });
  };
}

/** The explicit list of control plugins. */
export const controlPlugins: ControlPlugin[] = [stateControlRoutes, siteControlRoutes];

/**
 * The device simulator's routes, mounted under `/_gatehouse/simulate`: each domain adds a plugin whose
 * routes (`/alert`, `/badge`, ...) take the `gatehouse simulate <event>` flags as their body. The CLI sends
 * flag values as strings, so this scope's validator coerces them to the schema's numbers and booleans.
 */
export const simulatePlugins: ControlPlugin[] = [
  deviceSimulateRoutes, // relay discoveries, firmware, batch registration, audio playback (issue 34)
  eventSimulateRoutes,
  accessSimulateRoutes,
  ruleSimulateRoutes,
  integrationSimulateRoutes,
  sensorSimulateRoutes,
  guestSimulateRoutes, // access-lockdown (issue 21)
];

const coercingAjv = new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false });

/** Registers the control API; mount it with the prefix `/_gatehouse`. */
export function controlApi(deps: Deps, journal: RequestJournal) {
  const token = adminToken(deps.config);
  return async (app: ApiApp) => {
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization ?? '';
      const presented = /^Bearer (.+)$/i.exec(header)?.[1]?.trim() ?? '';
      if (!sameToken(presented, token)) throw fail('ADMIN_TOKEN_REQUIRED');
    });
    for (const plugin of [...controlPlugins, journalControlRoutes(journal)]) await plugin(app, deps);
    const simulateEvents: { event: string; body: unknown }[] = [];
    await app.register(
      async (simulate) => {
        simulate.addHook('onRoute', (route) => {
          const body = (route.schema as { body?: unknown } | undefined)?.body;
          if (body) simulateEvents.push({ event: route.url.split('/').pop()!, body });
        });
        // Compiled on a route's first request, as the operations' validators are (lazy-compilers.ts): compiling
        // every event's up front was a third of each start's CPU.
        simulate.setValidatorCompiler(({ schema }) => onFirstCall(() => coercingAjv.compile(schema)) as (data: unknown) => boolean);
        // A simulate body is the event's flags: an unknown flag is refused, and every refusal speaks of flags.
        simulate.addHook('onRoute', (route) => {
          const body = (route.schema as { body?: Record<string, unknown> } | undefined)?.body;
          if (!body) return;
          const event = route.url.split('/').pop()!;
          route.schema!.body = { ...body, additionalProperties: false };
          route.schemaErrorFormatter = flagErrorFormatter(event, body);
        });
        for (const plugin of simulatePlugins) await plugin(simulate as ApiApp, deps);
      },
      { prefix: '/simulate' },
    );
    // The simulator's events and the schemas of their flags, for the console's forms.
    app.get('/simulate', { schema: hidden }, async () => ({
      error: false,
      events: [...simulateEvents].sort((a, b) => a.event.localeCompare(b.event)),
    }));
  };
}
