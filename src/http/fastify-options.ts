import { LogController } from 'fastify';
import type { Logger } from '../logger.js';
import { randomToken } from '../ids.js';

/** Options shared by the REST and media listeners: our logger, no per-request log lines, random request ids. */
export function baseFastifyOptions(log: Logger, component: string) {
  return {
    loggerInstance: log.child({ component }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomToken(64),
  };
}
