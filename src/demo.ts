import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Deps } from './deps.js';
import { createOrg, hasAnyOrg } from './domains/orgs/service.js';
import { seedSiteText } from './domains/sites/service.js';

export const DEMO_ORG_NAME = 'Demo Organization';
/** The demo site, beside src/ and dist/ alike. */
export const DEMO_SITE_FILE = fileURLToPath(new URL('../examples/demo-site.yaml', import.meta.url));

/**
 * On the first start of an empty store, creates the demo organization and keeps its API key in the data
 * dir (mode 0600), so that every later start can print it again, and loads examples/demo-site.yaml into it.
 * Returns the key when one is known.
 */
export async function ensureDemoOrg(deps: Deps): Promise<{ apiKey: string; orgUuid: string } | null> {
  const file = join(deps.config.dataDir, 'demo-org.json');
  if (await hasAnyOrg(deps)) {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { apiKey: string; orgUuid: string }) : null;
  }
  const created = await createOrg(deps, { name: DEMO_ORG_NAME, userName: 'Demo Admin', email: 'admin@demo.example' }, 'demo.seed');
  await seedSiteText(deps, created.orgUuid, readFileSync(DEMO_SITE_FILE, 'utf8'), 'yaml', 'demo.seed');
  const demo = { orgUuid: created.orgUuid, apiKey: created.apiKey };
  mkdirSync(deps.config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(demo) + '\n', { mode: 0o600 });
  return demo;
}
