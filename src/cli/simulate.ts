import { Ajv } from 'ajv';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { eventUsage, flagProblem } from '../http/simulate-flags.js';
import { postControl } from './control-client.js';
import { addStoreOptions, printResult } from './options.js';
import { simulateEvents, type SimulateEvent } from './simulate-catalogue.js';

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

/** Every event with its flags, for `simulate --help` and an unknown event. */
export function eventsHelp(events: readonly SimulateEvent[]): string {
  return `Events and their flags ([...] optional):\n${events.map((e) => `  ${eventUsage(e.event, e.body)}`).join('\n')}\n`;
}

const coercing = new Ajv({ coerceTypes: true, allErrors: false, strict: false });

/** Checks the flags against the event's schema, as the server will, and words the first problem in flags. */
export function checkFlags(event: SimulateEvent, body: Record<string, unknown>): void {
  const validate = coercing.compile({ ...event.body, additionalProperties: false });
  if (!validate(structuredClone(body))) throw new Error(flagProblem(event.event, event.body, validate.errors![0] as never));
}

let preparedHelp = '';
/** Reads the events before commander runs, so that `simulate --help` can list them. */
export async function prepareSimulateHelp(): Promise<void> {
  preparedHelp = eventsHelp(await simulateEvents());
}

export function registerSimulateCommand(program: Command): void {
  addStoreOptions(
    program
      .command('simulate')
      .description('raise a device event on a running server, through the same code paths as devices (see README: Simulator)')
      .argument(
        '[event]',
        'alert, reading, badge, door, controller, press, crossing, climate, gateway, door-sensor, occupancy, tag, keypad, doorbell, connection, ... (simulate --help lists them all)',
      )
      .argument('[flags...]', "the event's flags, e.g. --device UUID --trigger MOTION_HUMAN"),
  )
    .option('--server <url>', "the running server's REST URL (GATEHOUSE_SERVER)")
    .option('--json', 'print the created records as JSON')
    .addHelpText('after', () => `\n${preparedHelp}`)
    .allowUnknownOption()
    .action(async (name: string | undefined, flags: string[], opts) => {
      const events = await simulateEvents();
      const event = events.find((e) => e.event === name);
      if (!event) throw new Error(`${name ? `unknown event "${name}"` : 'which event?'}\n${eventsHelp(events)}`);
      const body = flagsToBody(flags);
      checkFlags(event, body);
      const server = opts.server ?? process.env.GATEHOUSE_SERVER;
      if (!server) throw new Error('simulate needs --server URL (or GATEHOUSE_SERVER): the events go through the running server');
      const created = await postControl(server, loadConfig(opts).dataDir, `/simulate/${event.event}`, JSON.stringify(body));
      if (created.ignored === true || created.warningMsg)
        process.stderr.write(`gatehouse: ${created.ignored === true ? 'the server ignored the event: ' : ''}${created.warningMsg ?? 'no reason given'}\n`);
      printResult(created, opts.json ?? true);
    });
}
