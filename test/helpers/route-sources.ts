import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Deps } from '../../src/deps.js';
import { REPO_ROOT } from '../../scripts/lib/repo-root.js';

/** One operation path and the route file whose plugin registers it. */
export interface RouteSource {
  path: string;
  /** The route module, relative to the repository (`src/domains/events/vehicles/routes.ts`). */
  file: string;
  /** An alias: another name of an operation registered under its own path too. */
  alias: boolean;
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    return /routes\.(ts|js)$/.test(name) && !/control-routes/.test(name) ? [path] : [];
  });
}

/**
 * An app that only listens: every route it is given is recorded, and everything else a plugin does to it
 * (hooks, parsers, decorators, nested plugins) is accepted and ignored.
 */
function recordingApp(record: (url: string, alias: boolean) => void): unknown {
  const noop: unknown = new Proxy(() => noop, { get: () => noop, apply: () => noop });
  const app: unknown = new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === 'then') return undefined;
        if (prop === 'route')
          return (options: { url: string; schema?: { description?: string } }) => {
            record(options.url, /^Alias of /.test(options.schema?.description ?? ''));
            return app;
          };
        if (prop === 'register')
          return async (plugin: (instance: unknown, options: object) => unknown, options?: object) => {
            // A plugin that fails against the recorder (a body parser's, throwing at once) is skipped, not the routes after it.
            await Promise.resolve()
              .then(() => plugin(app, options ?? {}))
              .catch(() => {});
            return app;
          };
        return noop;
      },
    },
  );
  return app;
}

/**
 * Which route file registers each /api path: every `*routes.ts` module under src/domains (its build when this
 * module is compiled) is imported and each exported `...Routes` plugin is run against a recording app. Nothing
 * is served; the deps are only captured by the handlers.
 */
export async function routeSources(deps: Deps): Promise<RouteSource[]> {
  // The sources say which modules exist; the build beside this module (when compiled) is what runs.
  const compiled = import.meta.url.endsWith('.js');
  const buildRoot = join(new URL('.', import.meta.url).pathname, '..', '..');
  const sources: RouteSource[] = [];
  for (const source of routeFiles(join(REPO_ROOT, 'src', 'domains'))) {
    const file = relative(REPO_ROOT, source);
    const module = compiled ? join(buildRoot, file.replace(/\.ts$/, '.js')) : source;
    const exports = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
    for (const [name, plugin] of Object.entries(exports)) {
      if (!/Routes$/.test(name) || typeof plugin !== 'function') continue;
      const app = recordingApp((path, alias) => {
        if (path.startsWith('/api/')) sources.push({ path, file, alias });
      });
      await (plugin as (app: unknown, deps: Deps) => unknown)(app, deps);
    }
  }
  return sources;
}
