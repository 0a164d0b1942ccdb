import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = [unknown, ...unknown[]];

/**
 * A request's logger, made into a real child logger on first use. Fastify makes a child per request, and a
 * child of a redacting pino logger costs more than the rest of a point lookup; with request logging off,
 * most requests never log at all.
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.logger.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  fatal(...args: LogArgs) {
    this.logger.fatal(...(args as [never]));
  }
  error(...args: LogArgs) {
    this.logger.error(...(args as [never]));
  }
  warn(...args: LogArgs) {
    this.logger.warn(...(args as [never]));
  }
  info(...args: LogArgs) {
    this.logger.info(...(args as [never]));
  }
  debug(...args: LogArgs) {
    this.logger.debug(...(args as [never]));
  }
  trace(...args: LogArgs) {
    this.logger.trace(...(args as [never]));
  }
  silent(...args: LogArgs) {
    this.logger.silent(...(args as [never]));
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`, giving each request a lazily made child. */
export function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
