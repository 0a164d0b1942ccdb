import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { seedSiteText, siteFormatOf } from '../domains/sites/service.js';
import { postControl } from './control-client.js';
import { addStoreOptions, printResult, withDeps } from './options.js';

/** Seeds through a running server's control API, so that its stream and rules see what is created. */
function seedThroughServer(server: string, dataDir: string, orgUuid: string, file: string, text: string): Promise<Record<string, unknown>> {
  const contentType = siteFormatOf(file) === 'json' ? 'application/json' : 'application/yaml';
  return postControl(server, dataDir, `/orgs/${encodeURIComponent(orgUuid)}/seed`, text, contentType);
}

export function registerSeedCommand(program: Command): void {
  addStoreOptions(program.command('seed').description('load a site file (YAML or JSON) into an organization; prints the created UUIDs by name'))
    .argument('<file>', 'site file (.yaml, .yml or .json)')
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--server <url>', "a running server's REST URL: seed through its control API")
    .option('--json', 'print {"<kind>": {"<name>": "<uuid>"}} as JSON')
    .action(async (file: string, opts) => {
      const text = readFileSync(file, 'utf8');
      const created = opts.server
        ? await seedThroughServer(opts.server, loadConfig(opts).dataDir, opts.org, file, text)
        : await withDeps(opts, (deps) => seedSiteText(deps, opts.org, text, siteFormatOf(file), 'cli.seed'));
      printResult(created, opts.json);
    });
}
