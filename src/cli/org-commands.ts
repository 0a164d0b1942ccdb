import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { certificateFingerprint } from '../domains/orgs/api-keys.js';
import { createApiKey, createOrg, grantPartner } from '../domains/orgs/service.js';
import { addStoreOptions, printResult, withDeps } from './options.js';

export function registerOrgCommands(program: Command): void {
  const org = program.command('org').description('organizations');
  addStoreOptions(org.command('create').description('create an organization with a first user and a standard API key'))
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print {"orgUuid", "apiKey"} as JSON')
    .action(async (opts) => {
      const created = await withDeps(opts, (deps) => createOrg(deps, { name: opts.name }));
      printResult({ orgUuid: created.orgUuid, apiKey: created.apiKey, userUuid: created.userUuid }, opts.json);
    });
}

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('API keys');
  addStoreOptions(key.command('create').description('issue an API key for an organization (shown once)'))
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--partner', 'a partner key, acting for client organizations granted to this one')
    .option('--internal', 'an internal key, for the internal operations')
    .option('--cert <file>', 'PEM client certificate required with the api / partner-api schemes')
    .option('--json', 'print {"apiKey"} as JSON')
    .action(async (opts) => {
      if (opts.partner && opts.internal) throw new Error('--partner and --internal exclude each other');
      const certFingerprint = opts.cert ? certificateFingerprint(readFileSync(opts.cert)) : null;
      const kind = opts.partner ? 'partner' : opts.internal ? 'internal' : 'standard';
      const { apiKey } = await withDeps(opts, (deps) => createApiKey(deps, { orgUuid: opts.org, kind, certFingerprint }));
      printResult({ apiKey }, opts.json);
    });
}

export function registerPartnerCommands(program: Command): void {
  const partner = program.command('partner').description('partner access');
  addStoreOptions(partner.command('grant').description("let the partner organization's partner keys act for the client organization"))
    .requiredOption('--partner-org <orgUuid>', 'partner organization UUID')
    .requiredOption('--client-org <orgUuid>', 'client organization UUID')
    .option('--json', 'print the result as JSON')
    .action(async (opts) => {
      const result = await withDeps(opts, (deps) => grantPartner(deps, { partnerOrgUuid: opts.partnerOrg, clientOrgUuid: opts.clientOrg }));
      printResult({ partnerOrgUuid: opts.partnerOrg, clientOrgUuid: opts.clientOrg, ...result }, opts.json);
    });
}
