import { LogController } from 'fastify';
import type { Logger } from '../logger.js';
import { randomToken } from '../ids.js';
import { lazyRequestLogger } from './lazy-request-logger.js';

// Request ids: a random prefix per process and a counter, unique across instances without a random draw per request.
const processPrefix = randomToken(48);
let requestCounter = 0;

/** Options shared by the REST and media listeners: our logger (a request's child made lazily), no per-request log lines, cheap unique request ids. */
export function baseFastifyOptions(log: Logger, component: string) {
  return {
    loggerInstance: log.child({ component }),
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: () => `${processPrefix}-${(++requestCounter).toString(36)}`,
  };
}
