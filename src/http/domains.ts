import type { Deps } from '../deps.js';
import { doorsUsingSchedule } from '../domains/access/schedule-usage.js';
import { deviceRoutes } from '../domains/devices/routes.js';
import { orgRoutes } from '../domains/orgs/routes.js';
import { scheduleRoutes } from '../domains/schedules/routes.js';
import { registerScheduleUsage } from '../domains/schedules/schedule-usage.js';
import type { ApiApp } from './operation.js';

/** The explicit list of domain plugins: each registers its operations under /api. */
export const domainPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [orgRoutes, deviceRoutes, scheduleRoutes];

/** The domains whose records follow schedules: deleting a schedule they use is refused. */
registerScheduleUsage(doorsUsingSchedule);
