import { Option, type Command } from 'commander';
import { closeDeps, openDeps } from '../app.js';
import { loadConfig, type ConfigFlags } from '../config.js';
import type { Deps } from '../deps.js';
import { createLogger } from '../logger.js';

/** The flags that every command takes, so that it works on the store of a running server. */
export function addStoreOptions(command: Command): Command {
  return command
    .addOption(new Option('--data-dir <dir>', 'data directory (GATEHOUSE_DATA_DIR)'))
    .addOption(new Option('--database <url>', 'sqlite:<file> or postgres://... (GATEHOUSE_DATABASE_URL)'))
    .addOption(new Option('--region <region>', 'us or eu (GATEHOUSE_REGION)'));
}

/** Runs a command against the store (migrated) without starting any listener. */
export async function withDeps<T>(flags: ConfigFlags, fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig(flags);
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
