import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { addStoreOptions, printResult, withDeps } from './options.js';

/** The organizations' services load only for the command that runs (the CLI starts in a fraction of the time). */
const orgs = () => import('../domains/orgs/service.js');

export function registerOrgCommands(program: Command): void {
  const org = program.command('org').description('organizations');
  addStoreOptions(org.command('create').description('create an organization with a first user and a standard API key'))
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print {"orgUuid", "apiKey"} as JSON')
    .action(async (opts) => {
      const created = await withDeps(opts, async (deps) => (await orgs()).createOrg(deps, { name: opts.name }));
      printResult({ orgUuid: created.orgUuid, apiKey: created.apiKey, userUuid: created.userUuid }, opts.json);
    });
}

const DURATION_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `15m`, `12h`, `30d` in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match || Number(match[1]) === 0) throw new Error(`"${text}" is not a duration: a positive number and s, m, h or d, as in 30d`);
  return Number(match[1]) * DURATION_UNIT_MS[match[2] as keyof typeof DURATION_UNIT_MS];
}

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('API keys');
  addStoreOptions(key.command('create').description('issue an API key for an organization (shown once)'))
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--partner', 'a partner key, acting for client organizations granted to this one')
    .option('--internal', 'an internal key, for the internal operations')
    .option('--cert <file>', 'PEM client certificate required with the api / partner-api schemes')
    .option('--expires-in <duration>', 'the key stops working after this long: 90s, 15m, 12h, 30d (default: never)')
    .option('--json', 'print {"apiKey", "keyId", "expiresAtMs"} as JSON')
    .action(async (opts) => {
      if (opts.partner && opts.internal) throw new Error('--partner and --internal exclude each other');
      const expiresAtMs = opts.expiresIn === undefined ? null : Date.now() + parseDuration(opts.expiresIn);
      const certFingerprint = opts.cert ? (await import('../domains/orgs/keys/api-keys.js')).certificateFingerprint(readFileSync(opts.cert)) : null;
      const kind = opts.partner ? 'partner' : opts.internal ? 'internal' : 'standard';
      const { apiKey, keyId } = await withDeps(opts, async (deps) =>
        (await orgs()).createApiKey(deps, { orgUuid: opts.org, kind, certFingerprint, expiresAtMs }),
      );
      printResult({ apiKey, keyId, expiresAtMs }, opts.json);
    });
  addStoreOptions(key.command('list').description("list an organization's API keys (never the keys themselves)"))
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--json', 'print {"keys": [...]} as JSON')
    .action(async (opts) => {
      printResult({ keys: await withDeps(opts, async (deps) => (await orgs()).listApiKeys(deps, { orgUuid: opts.org })) }, opts.json);
    });
  addStoreOptions(key.command('revoke').description('revoke an API key: it stops working, and the stream sessions it opened are closed'))
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .requiredOption('--key <keyId>', 'the key id (from key create or key list)')
    .option('--bus <url>', "the running servers' bus, to tell them at once (GATEHOUSE_BUS_URL)")
    .option('--json', 'print {"keyId", "revoked"} as JSON')
    .action(async (opts) => {
      const revoked = await withDeps(opts, async (deps) => (await orgs()).revokeApiKey(deps, { orgUuid: opts.org, keyId: opts.key }));
      printResult({ keyId: opts.key, revoked }, opts.json);
    });
}

export function registerPartnerCommands(program: Command): void {
  const partner = program.command('partner').description('partner access');
  addStoreOptions(partner.command('grant').description("let the partner organization's partner keys act for the client organization"))
    .requiredOption('--partner-org <orgUuid>', 'partner organization UUID')
    .requiredOption('--client-org <orgUuid>', 'client organization UUID')
    .option('--json', 'print the result as JSON')
    .action(async (opts) => {
      const result = await withDeps(opts, async (deps) =>
        (await orgs()).grantPartner(deps, { partnerOrgUuid: opts.partnerOrg, clientOrgUuid: opts.clientOrg }),
      );
      printResult({ partnerOrgUuid: opts.partnerOrg, clientOrgUuid: opts.clientOrg, ...result }, opts.json);
    });
}

/** Licenses reach an organization from the vendor's order system: here, the operator issues them. */
export function registerLicenseCommands(program: Command): void {
  const license = program.command('license').description('licenses');
  addStoreOptions(license.command('issue').description('issue unassigned licenses to an organization (it assigns them: license/assign*)'))
    .requiredOption('--org <orgUuid>', 'organization UUID')
    .option('--product <type>', 'DEVICE, LICENSE_USAGE (an add-on), ACCESS_CONTROL or ALERT_MONITORING', 'DEVICE')
    .option('--type <tier>', 'STARTER, STANDARD, ENTERPRISE or LEGACY (device and alert-monitoring licenses)')
    .option('--family <family>', 'CAMERA, CAMERA_MS, VIDEO_INTERCOM, AUDIO_GATEWAY, ENVIRONMENTAL_SENSOR or ENVIRONMENTAL_GATEWAY (device licenses)')
    .option('--add-on <addOn>', 'CLOUD_ARCHIVING, PERCEPTION, POSE, BEHAVIOR, VEHICLE, PEOPLE, PPE or PEOPLE_ANALYTICS (LICENSE_USAGE)')
    .option('--count <n>', 'how many', '1')
    .option('--trial', 'trial licenses')
    .option('--json', 'print {"licenseUuids"} as JSON')
    .action(async (opts) => {
      const { PRODUCT_TYPES, LICENSE_TYPES, LICENSE_FAMILIES, ADD_ONS } = await import('../domains/access/licenses/schemas.js');
      const oneOf = (name: string, value: string | undefined, allowed: readonly string[]) => {
        if (value !== undefined && !allowed.includes(value)) throw new Error(`--${name} ${value}: one of ${allowed.join(', ')}`);
        return value ?? null;
      };
      const count = Number(opts.count);
      if (!Number.isInteger(count) || count < 1 || count > 1000) throw new Error('--count: 1 to 1000');
      const order = {
        productType: oneOf('product', opts.product, PRODUCT_TYPES) as (typeof PRODUCT_TYPES)[number],
        licenseType: oneOf('type', opts.type, LICENSE_TYPES),
        licenseFamily: oneOf('family', opts.family, LICENSE_FAMILIES),
        addOn: oneOf('add-on', opts.addOn, ADD_ONS),
        trial: opts.trial === true,
        count,
      };
      const rows = await withDeps(opts, async (deps) =>
        (await import('../domains/access/licenses/service.js')).issueLicenses(
          deps,
          { orgUuid: opts.org, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation: 'cli:license issue' },
          order,
        ),
      );
      printResult({ licenseUuids: rows.map((r) => r.uuid) }, opts.json);
    });
}

/** Hardware reaches an organization in a shipment: here, the operator issues one; the organization claims it by its token. */
export function registerShipmentCommands(program: Command): void {
  const shipment = program.command('shipment').description('shipments of hardware');
  addStoreOptions(shipment.command('issue').description('issue a shipment of hardware units and its registration token (shown once)'))
    .requiredOption('--serial <serial...>', "the units' serial numbers")
    .option('--type <type>', 'the platform device type of the units (CAMERA, AUDIO_GATEWAY, BADGE_READER, ...)', 'CAMERA')
    .option('--variation <hwVariation>', "the units' hardware variation (CAMERA_R510, ...)")
    .option('--json', 'print {"token", "shipmentUuid", "hardware"} as JSON')
    .action(async (opts) => {
      const registrations = await import('../domains/orgs/registrations/service.js');
      const type = opts.type as (typeof registrations.SHIPPABLE_TYPES)[number];
      if (!registrations.SHIPPABLE_TYPES.includes(type)) throw new Error(`--type ${opts.type}: one of ${registrations.SHIPPABLE_TYPES.join(', ')}`);
      if (opts.variation !== undefined && !/^[A-Z0-9_]{1,40}$/.test(opts.variation)) throw new Error('--variation: capitals, digits and _');
      const serials = opts.serial as string[];
      if (serials.length > 1000 || serials.some((s) => s.length === 0 || s.length > 64))
        throw new Error('--serial: 1 to 1000 serial numbers of 1 to 64 characters');
      const issued = await withDeps(opts, async (deps) =>
        registrations.issueShipment(
          deps,
          serials.map((serialNumber) => ({ serialNumber, type, hwVariation: opts.variation ?? null })),
        ),
      );
      printResult({ token: issued.token, shipmentUuid: issued.shipmentUuid, hardware: issued.hardware }, opts.json);
    });
}
