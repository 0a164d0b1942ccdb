import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';

/** doorcontroller/*DoorControllerRule, as the platform's MCP calls them (client-calls.md): rules with real state. */
forEachDialect('door controller rules', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let controller: string;
  let otherController: string;
  const api = apiAs(server, () => org.apiKey, '/api/doorcontroller');
  before(async () => {
    org = await server().createOrg('Rules Doors');
    other = await server().createOrg('Other Rules Doors');
    const yaml = `
locations: [{name: Main}]
doorControllers: [{name: Main Controller, location: Main}]
`;
    controller = (await seedYaml(server(), org.orgUuid, yaml)).doorControllers!['Main Controller']!;
    otherController = (await seedYaml(server(), other.orgUuid, yaml)).doorControllers!['Main Controller']!;
  });

  it('creates, reads, lists, updates and deletes a rule, each change on the stream', async () => {
    const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
    try {
      const created = (
        await api.ok('createDoorControllerRule', { doorControllerUuid: controller, rule: { name: 'After hours', ruleType: 'SCHEDULE', relay: 2 } })
      ).rule;
      assert.deepEqual(
        [created.name, created.enabled, created.ruleType, created.deviceUuid, created.settings],
        ['After hours', true, 'SCHEDULE', controller, { relay: 2 }],
      );
      await watch.waitFor((c) => c.entity === 'DOOR_CONTROLLER_RULE' && c.entityUuid === created.uuid && c.type === 'CREATE', 'the CREATE change');
      assert.deepEqual((await api.ok('getDoorControllerRule', { doorControllerUuid: controller, ruleUuid: created.uuid })).rule, created);
      // The MCP names the controller deviceUuid too.
      const listed = (await api.ok('getDoorControllerRules', { deviceUuid: controller })).rules;
      assert.deepEqual(
        listed.map((r: any) => [r.uuid, r.deviceUuid, r.enabled, r.name, r.ruleType]),
        [[created.uuid, controller, true, 'After hours', 'SCHEDULE']],
      );
      const updated = (
        await api.ok('updateDoorControllerRule', { doorControllerUuid: controller, rule: { uuid: created.uuid, name: 'Night', enabled: false } })
      ).rule;
      assert.deepEqual([updated.name, updated.enabled, updated.ruleType], ['Night', false, 'SCHEDULE']);
      await watch.waitFor((c) => c.entity === 'DOOR_CONTROLLER_RULE' && c.type === 'UPDATE', 'the UPDATE change');
      await api.ok('deleteDoorControllerRule', { doorControllerUuid: controller, ruleUuid: created.uuid });
      await watch.waitFor((c) => c.entity === 'DOOR_CONTROLLER_RULE' && c.type === 'DELETE', 'the DELETE change');
      assert.deepEqual((await api.ok('getDoorControllerRules', { doorControllerUuid: controller })).rules, []);
      assert.equal(await api.refused('getDoorControllerRule', { doorControllerUuid: controller, ruleUuid: created.uuid }), 'Door controller rule not found');
    } finally {
      await watch.close();
    }
  });

  it("answers another organization's controller and rules as unknown, writing nothing; refuses a rule without a name (400)", async () => {
    const theirs = (
      await apiAs(server, other.apiKey, '/api/doorcontroller').ok('createDoorControllerRule', { doorControllerUuid: otherController, rule: { name: 'Theirs' } })
    ).rule;
    assert.equal(await api.refused('createDoorControllerRule', { doorControllerUuid: otherController, rule: { name: 'Mine' } }), 'Door controller not found');
    assert.equal(await api.refused('deleteDoorControllerRule', { doorControllerUuid: otherController, ruleUuid: theirs.uuid }), 'Door controller not found');
    assert.equal(await api.refused('getDoorControllerRule', { doorControllerUuid: controller, ruleUuid: theirs.uuid }), 'Door controller rule not found');
    assert.equal(
      (await apiAs(server, other.apiKey, '/api/doorcontroller').ok('getDoorControllerRules', { doorControllerUuid: otherController })).rules.length,
      1,
    );
    const bad = await api.call('createDoorControllerRule', { doorControllerUuid: controller, rule: { enabled: true } });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorMsg, /name/);
    assert.deepEqual((await api.ok('getDoorControllerRules', { doorControllerUuid: controller })).rules, []);
  });
});
