import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createCredential, doorEvents, H10301_CARD, seedAccessSite, type AccessSite } from './fixtures.js';

// The CLI only speaks HTTP to the server, so one store dialect suffices here: the routes behind it run on
// both dialects in the other files of this folder.
describe('gatehouse simulate badge|door|rex|controller', () => {
  let server: TestServer;
  let org: TestOrg;
  let site: AccessSite;
  before(async () => {
    server = await startTestServer('sqlite');
    org = await server.createOrg('CLI Org');
    site = await seedAccessSite(server, org.orgUuid);
  });
  after(() => server.close());

  /** `gatehouse simulate <event> ...` against the running server, its admin token read from its data dir. */
  async function simulateCli(args: string[]): Promise<any> {
    const r = await runCli(['simulate', ...args, '--server', server.rest, '--data-dir', server.config.dataDir], { GATEHOUSE_ADMIN_TOKEN: '' });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  }

  it('badge --door D --hex H --type T presents a card and prints the decision and the events', async () => {
    await createCredential(server, org.apiKey, { credentialType: 'WIEGAND_H10301', hexValue: H10301_CARD.hex, userUuid: site.users.Ada });
    const out = await simulateCli(['badge', '--door', site.doors['Back Door'], '--hex', '014088B', '--type', 'WIEGAND_H10301']);
    assert.equal(out.granted, true);
    assert.equal(out.credentialReceivedEvent.credentialValue, H10301_CARD.value);
    assert.deepEqual(
      out.relayEvents.map((e: any) => e.newState),
      ['UNLOCKED'],
    );
    const unknown = await simulateCli(['badge', '--door', site.doors['Back Door'], '--hex', '1234']);
    assert.equal(unknown.unauthorizedBadge.credentialHexValue, '1234', 'a hex of digits stays a string');
  });

  it('door --door D --position P reports the door position', async () => {
    const out = await simulateCli(['door', '--door', site.doors['Front Door'], '--position', 'FORCED_OPEN']);
    assert.equal(out.door.position, 'FORCED_OPEN');
    assert.equal((await doorEvents(server, org.apiKey, site.doors['Front Door']))[0].newState, 'FORCED_OPEN');
  });

  it('rex --door D fires the request to exit', async () => {
    const out = await simulateCli(['rex', '--door', site.doors['Vault Door']]);
    assert.equal(out.event.type, 'RequestToExitStateChangeEvent');
    assert.equal(out.relayEvents[0].newState, 'UNLOCKED');
  });

  it('controller --door D --offline | --online takes the controller down and up', async () => {
    assert.equal((await simulateCli(['controller', '--door', site.doors['Front Door'], '--offline'])).door.controllerOnline, false);
    const refused = await server.call(
      '/api/accesscontrol/unlockAccessControlledDoor',
      { accessControlledDoorUuid: site.doors['Front Door'] },
      { key: org.apiKey },
    );
    assert.equal(refused.json.errorType, 'FAILED_SENDING_ACU_UNLOCK_REQUEST');
    assert.equal((await simulateCli(['controller', '--door', site.doors['Front Door'], '--online'])).door.controllerOnline, true);
  });

  it("prints the server's refusal on stderr with exit code 1", async () => {
    const r = await runCli(
      ['simulate', 'door', '--door', 'AAAAAAAAAAAAAAAAAAAAAA', '--position', 'OPEN', '--server', server.rest, '--data-dir', server.config.dataDir],
      { GATEHOUSE_ADMIN_TOKEN: '' },
    );
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Door not found/);
  });
});
