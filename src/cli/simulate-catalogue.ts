import type { Deps } from '../deps.js';
import type { ApiApp } from '../http/operation.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/** A simulator event: its name (`gatehouse simulate <event>`) and the schema of its flags. */
export interface SimulateEvent {
  event: string;
  body: JsonSchema;
}

/**
 * The simulator's events, read from the same route schemas the server validates with: the simulate
 * plugins are registered on a Fastify instance that never listens (registration touches no dependency).
 */
export async function simulateEvents(): Promise<SimulateEvent[]> {
  // Loaded here, not at the top: every other CLI command starts without the routes.
  const [{ default: Fastify }, { simulatePlugins }] = await Promise.all([import('fastify'), import('../http/control.js')]);
  const app = Fastify();
  const events: SimulateEvent[] = [];
  app.addHook('onRoute', (route) => {
    const body = (route.schema as { body?: JsonSchema } | undefined)?.body;
    if (body) events.push({ event: route.url.split('/').pop()!, body });
  });
  await app.register(
    async (scope) => {
      for (const plugin of simulatePlugins) await plugin(scope as unknown as ApiApp, {} as Deps);
    },
    { prefix: '/simulate' },
  );
  await app.ready();
  await app.close();
  return events.sort((a, b) => a.event.localeCompare(b.event));
}
