import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { postControl } from './control-client.js';
import { printResult } from './options.js';

/** `--co2-ppm` → `co2Ppm`. */
const camelCase = (flag: string) => flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * A flag is `--` and a lower-case kebab-case name. Anything else after a flag is its value: RUUIDs are
 * URL-safe base-64, so one in 4,096 starts with `--` (`--Zx3...`), and that is a value, not a flag.
 */
const FLAG = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s;

/**
 * Reads `--name value` pairs and bare `--switch` flags into a body. Values stay strings: the simulate
 * routes coerce them to their schema's types, so a hex value such as `--hex 1234` is never a number.
 */
export function flagsToBody(args: string[]): Record<string, string | boolean> {
  const body: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = FLAG.exec(args[i]);
    if (!flag) throw new Error(`unexpected argument "${args[i]}": flags are --name value`);
    const [, name, inline] = flag;
    if (inline !== undefined) body[camelCase(name)] = inline;
    else if (i + 1 < args.length && !FLAG.test(args[i + 1])) body[camelCase(name)] = args[++i];
    else body[camelCase(name)] = true;
  }
  return body;
}

export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description('raise a device event on a running server, through the same code paths as devices (see README: Simulator)')
    .argument('<event>', 'alert, reading, badge, door, controller, press, crossing, climate, gateway, door-sensor, occupancy, tag, keypad, doorbell, connection, ...')
    .argument('[flags...]', 'the event\'s flags, e.g. --device UUID --trigger MOTION_HUMAN')
    .option('--server <url>', "the running server's REST URL (GATEHOUSE_SERVER)")
    .option('--data-dir <dir>', "the server's data dir, for its admin token (GATEHOUSE_DATA_DIR)")
    .option('--json', 'print the created records as JSON')
    .allowUnknownOption()
    .action(async (event: string, flags: string[], opts) => {
      const server = opts.server ?? process.env.GATEHOUSE_SERVER;
      if (!server) throw new Error('simulate needs --server URL (or GATEHOUSE_SERVER): the events go through the running server');
      if (!/^[a-z][a-z-]*$/.test(event)) throw new Error(`unknown event "${event}"`);
      const body = flagsToBody(flags);
      const created = await postControl(server, loadConfig({ dataDir: opts.dataDir }).dataDir, `/simulate/${event}`, JSON.stringify(body));
      printResult(created, opts.json ?? true);
    });
}
