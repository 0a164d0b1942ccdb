import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Deps } from '../deps.js';
import type { ApiApp } from '../edge/operation.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/** A simulator event: its name (`gatehouse simulate <event>`) and the schema of its flags. */
export interface SimulateEvent {
  event: string;
  body: JsonSchema;
}

/**
 * The simulator's events as the build wrote them (dist/simulate-events.json, by scripts/build-if-stale.mjs), when
 * that file is not older than the modules beside it: reading them from the routes loads most of the server,
 * about a second of CPU on every `gatehouse simulate`. Anywhere else (the tests' build, a compile by hand) they
 * are read from the routes.
 */
const CATALOGUE = new URL('../simulate-events.json', import.meta.url);

export async function simulateEvents(): Promise<SimulateEvent[]> {
  try {
    if (statSync(CATALOGUE).mtimeMs >= statSync(new URL('../http/control.js', import.meta.url)).mtimeMs)
      return JSON.parse(readFileSync(CATALOGUE, 'utf8')) as SimulateEvent[];
  } catch {
    // No catalogue here: read the routes.
  }
  return simulateEventsOfRoutes();
}

/** Writes the catalogue that simulateEvents reads (the build runs it after compiling). */
export async function writeSimulateCatalogue(): Promise<void> {
  writeFileSync(CATALOGUE, JSON.stringify(await simulateEventsOfRoutes()));
}

/**
 * The simulator's events, read from the same route schemas the server validates with: the simulate
 * plugins are registered on a Fastify instance that never listens (registration touches no dependency).
 */
async function simulateEventsOfRoutes(): Promise<SimulateEvent[]> {
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
