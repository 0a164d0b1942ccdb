import { createRequire } from 'node:module';
import { Command } from 'commander';
import { ConfigError } from '../config.js';
import { isGatehouseError } from '../errors.js';
import { registerKeyCommands, registerLicenseCommands, registerOrgCommands, registerPartnerCommands, registerShipmentCommands } from './org-commands.js';
import { registerSeedCommand } from './seed.js';
import { prepareSimulateHelp, registerSimulateCommand } from './simulate.js';
import { registerStartCommand } from './start.js';

/** `gatehouse <command>`: each command is a thin edge over the services (see PRODUCT.md for the contract). */
const program = new Command()
  .name('gatehouse')
  .description('Gatehouse: a self-hostable physical-security platform API')
  .version((createRequire(import.meta.url)('../../package.json') as { version: string }).version, '-V, --version', 'print the version')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerStartCommand(program);
registerOrgCommands(program);
registerKeyCommands(program);
registerLicenseCommands(program);
registerShipmentCommands(program);
registerPartnerCommands(program);
registerSeedCommand(program);
registerSimulateCommand(program);

try {
  if (process.argv[2] === 'simulate' && process.argv.some((a) => a === '--help' || a === '-h')) await prepareSimulateHelp();
  await program.parseAsync(process.argv);
} catch (e) {
  // Expected failures (bad flags, a refused operation) print their message; anything else its message too, never a stack.
  const known = e instanceof ConfigError || isGatehouseError(e);
  process.stderr.write(`gatehouse: ${known || e instanceof Error ? (e as Error).message : String(e)}\n`);
  process.exitCode = 1;
}
