import type { Deps } from '../../../deps.js';
import type { ApiApp } from '../../../edge/operation.js';

/** The partners' behaviours: lists of their doors, readers and places, door unlocks, lockdowns, connection tests. */
export function behaviourRoutes(_app: ApiApp, _deps: Deps): void {}
