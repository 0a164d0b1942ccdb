import type { Deps } from '../deps.js';
import type { ApiApp } from './operation.js';

/** A group of control routes (`/_gatehouse/...`), registered by src/http/control.ts behind the admin token. */
export type ControlPlugin = (app: ApiApp, deps: Deps) => void | Promise<void>;

/** Spread into a control route's schema: control routes are left out of /openapi.json. */
export const hidden = { hide: true } as const;
