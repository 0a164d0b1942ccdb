import assert from 'node:assert/strict';
import { assertOk } from './api.js';
import { createApiKey } from '../../src/domains/orgs/service.js';
import { seedSiteText } from '../../src/domains/sites/service.js';
import { collect, stompjsClient } from '../e2e/streaming/helpers.js';
import { waitFor } from './wait.js';
import type { CallResult, TestServer } from './server.js';

/** Seeds a YAML site file into an organization; answers the created uuids by kind and name. */
export async function seedYaml(server: TestServer, orgUuid: string, yaml: string): Promise<Record<string, Record<string, string>>> {
  return (await seedSiteText(server.gatehouse.deps, orgUuid, yaml, 'yaml')) as Record<string, Record<string, string>>;
}

/** A standard key that acts as the given user. */
export async function keyForUser(server: TestServer, orgUuid: string, userUuid: string): Promise<string> {
  return (await createApiKey(server.gatehouse.deps, { orgUuid, kind: 'standard', userUuid })).apiKey;
}

export interface ChangeBody {
  entity: string;
  entityUuid: string;
  type: string;
  update: any;
}

/** Watches an organization's change topic over a real STOMP client; `waitFor` finds a change, bounded in time. */
export async function watchChanges(server: TestServer, apiKey: string, orgUuid: string) {
  const client = await stompjsClient(server.gatehouse.urls.ws, { key: apiKey, scheme: 'api-token' });
  const sub = await collect(client, `/topic/change/${orgUuid}`);
  const bodies = () => sub.messages.map((m) => JSON.parse(m.body) as ChangeBody);
  return {
    bodies,
    async waitFor(test: (c: ChangeBody) => boolean, what: string): Promise<ChangeBody> {
      await waitFor(what, () => bodies().some(test));
      return bodies().find(test)!;
    },
    close: () => client.deactivate(),
  };
}

/** The platform's answer to a write the caller's role may not make: 403 with its text. */
export function expectDenied(r: CallResult): void {
  assert.equal(r.status, 403, r.text);
  assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Your API key role does not have proper permission' });
}

/** A key of a new user of the organization whose permission group has no functionality: it reads, never writes. */
export async function readOnlyKey(server: TestServer, org: { orgUuid: string; apiKey: string }): Promise<string> {
  const name = `Read only ${Math.random().toString(36).slice(2, 8)}`;
  const group = await server.call('/api/permission/createPermissionGroup', { userPermissionGroup: { name, functionalityList: [] } }, { key: org.apiKey });
  assertOk(group);
  const user = await server.call('/api/user/createUser', { name, permissionGroupUuid: group.json.uuid }, { key: org.apiKey });
  assertOk(user);
  return keyForUser(server, org.orgUuid, user.json.userUuid);
}
