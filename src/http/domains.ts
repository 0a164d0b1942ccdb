import type { Deps } from '../deps.js';
import { integrationRoutes } from '../domains/integrations/routes.js';
import { orgRoutes } from '../domains/orgs/routes.js';
import type { ApiApp } from './operation.js';

/** The explicit list of domain plugins: each registers its operations under /api. */
export const domainPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [orgRoutes, integrationRoutes];
