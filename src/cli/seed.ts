import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { postControl } from './control-client.js';
import { addStoreOptions, printResult, withDeps } from './options.js';

/** Seeds through a running server's control API, so that its stream and rules see what is created. */
function seedThroughServer(server: string, dataDir: string, orgUuid: string, file: string, text: string, format: string): Promise<Record<string, unknown>> {
  const contentType = format === 'json' ? 'application/json' : 'application/yaml';
  return postControl(server, dataDir, `/orgs/${encodeURIComponent(orgUuid)}/seed`, text, contentType);
}

export function registerSeedCommand(program: Command): void {
  addStoreOptions(program.command('seed').description('load a site file (YAML or JSON) into an organization; prints the created UUIDs by name'))
    .argument('<file>', 'site file (.yaml, .yml or .json)')
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--server <url>', "a running server's REST URL: seed through its control API")
    .option('--json', 'print {"<kind>": {"<name>": "<uuid>"}} as JSON')
    .action(async (file: string, opts) => {
      // The site checker loads only for `seed`: the other commands start faster without it.
      const { seedSiteText, siteFormatOf } = await import('../domains/sites/service.js');
      const text = readFileSync(file, 'utf8');
      const format = siteFormatOf(file);
      const created = opts.server
        ? await seedThroughServer(opts.server, loadConfig(opts).dataDir, opts.org, file, text, format)
        : await withDeps(opts, (deps) => seedSiteText(deps, opts.org, text, format, 'cli.seed'));
      printResult(created, opts.json);
    });
}
