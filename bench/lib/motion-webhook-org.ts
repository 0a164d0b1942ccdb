import type { createOrg } from '../../src/domains/orgs/service.js';
import type { seedSite } from '../../src/domains/sites/service.js';

/** The build's functions it uses: the benches load them from a dist folder of their choice. */
export interface OrgBuilders {
  createOrg: typeof createOrg;
  seedSite: typeof seedSite;
}

/**
 * An organization with `cameras` cameras at one location and one general rule that sends every motion of them to
 * `webhookUrl` (created through the REST API, as a user would): what the busy-organization bench and the
 * raise-cost count both raise alerts in.
 */
export async function seedMotionWebhookOrg(
  build: OrgBuilders,
  deps: Parameters<typeof createOrg>[0] & Parameters<typeof seedSite>[0],
  restUrl: string,
  options: { name: string; cameras: number; webhookUrl: string },
): Promise<{ orgUuid: string; apiKey: string; cameras: string[] }> {
  const org = await build.createOrg(deps, { name: options.name });
  const names = Array.from({ length: options.cameras }, (_, i) => `Camera ${String(i).padStart(3, '0')}`);
  const site = await build.seedSite(deps, org.orgUuid, { locations: [{ name: 'HQ' }], cameras: names.map((name) => ({ name, location: 'HQ' })) });
  const cameras = names.map((name) => site.cameras![name]!);
  const rule = await fetch(`${restUrl}/api/rules/createRule`, {
    method: 'POST',
    headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      rule: {
        name: 'Every motion to the webhook',
        triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'MOTION' }, deviceUuids: cameras }],
        action: { webhookActions: [{ webhookUrl: options.webhookUrl }] },
      },
    }),
  });
  if (rule.status !== 200) throw new Error(`createRule: ${rule.status} ${await rule.text()}`);
  return { orgUuid: org.orgUuid, apiKey: org.apiKey, cameras };
}
