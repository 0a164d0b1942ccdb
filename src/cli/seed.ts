import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { seedSiteText, siteFormatOf } from '../domains/sites/service.js';
import { ADMIN_TOKEN_FILE } from '../http/control.js';
import { addStoreOptions, printResult, withDeps } from './options.js';

/** The admin token of the server whose data dir (or environment) this command shares. */
function adminTokenFor(dataDir: string): string {
  if (process.env.GATEHOUSE_ADMIN_TOKEN) return process.env.GATEHOUSE_ADMIN_TOKEN;
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  if (!existsSync(file)) throw new Error(`no admin token: set GATEHOUSE_ADMIN_TOKEN or point --data-dir at the server's data dir (${file} is missing)`);
  return readFileSync(file, 'utf8').trim();
}

/** Seeds through a running server's control API, so that its stream and rules see what is created. */
async function seedThroughServer(server: string, dataDir: string, orgUuid: string, file: string, text: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.replace(/\/+$/, '')}/_gatehouse/orgs/${encodeURIComponent(orgUuid)}/seed`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${adminTokenFor(dataDir)}`,
      'content-type': siteFormatOf(file) === 'json' ? 'application/json' : 'application/yaml',
    },
    body: text,
  });
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || body.error !== false) throw new Error(String(body?.errorMsg ?? `the server answered HTTP ${response.status}`));
  const { error: _error, errorMsg: _errorMsg, warningMsg: _warningMsg, ...created } = body;
  return created;
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
