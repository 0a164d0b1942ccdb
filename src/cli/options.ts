import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config, type ConfigFlags } from '../config.js';
import type { Deps } from '../deps.js';
import { createLogger } from '../logger.js';

/** The flags that every command takes, so that it works on the store of a running server. */
export function addStoreOptions(command: Command): Command {
  return command
    .addOption(new Option('--data-dir <dir>', 'data directory (GATEHOUSE_DATA_DIR)'))
    .addOption(new Option('--database <url>', 'sqlite:<file> or postgres://... (GATEHOUSE_DATABASE_URL)'))
    .addOption(new Option('--region <region>', 'us or eu (GATEHOUSE_REGION)'))
    .addOption(new Option('--init', 'create a new store when the data dir has none (otherwise refused, so that a mistyped --data-dir is noticed)'));
}

/**
 * A command other than `start` works on an existing store: with no --database (nor GATEHOUSE_DATABASE_URL)
 * and no gatehouse.db in the data dir, it refuses rather than create an empty store that no server reads.
 */
function assertStoreExists(flags: ConfigFlags & { init?: boolean }, config: Config): void {
  if (flags.init || flags.database || process.env.GATEHOUSE_DATABASE_URL) return;
  const file = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl.slice('sqlite:'.length) : null;
  if (file && !existsSync(file)) {
    throw new ConfigError(
      `no store in ${config.dataDir} (${file} does not exist): point --data-dir at a server's data dir, give --database URL, or pass --init to create a new store`,
    );
  }
}

/** Runs a command against the store (migrated) without starting any listener. */
export async function withDeps<T>(flags: ConfigFlags & { init?: boolean }, fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig(flags);
  assertStoreExists(flags, config);
  // The store, the bus and their drivers load only for the commands that use them.
  const { closeDeps, openDeps } = await import('../open-deps.js');
  const deps = await openDeps(config, { log: createLogger('warn') });
  try {
    return await fn(deps);
  } finally {
    await closeDeps(deps);
  }
}

/** Prints a command's result: one JSON line with --json, else `key: value` lines. */
export function printResult(result: Record<string, unknown>, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}
