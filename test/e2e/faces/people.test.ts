import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const P = '/api/faceRecognition/person';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

forEachDialect('face recognition people', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  const call = (op: string, body: unknown, key = org.apiKey) => server.call(`${P}/${op}`, body, { key });
  const create = async (name: string, email?: string) => (await call('createPerson', { name, email })).json.person;

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('People Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  describe('POST /api/faceRecognition/person/createPerson', () => {
    it('requires authentication', async () => {
      assert.equal((await call('createPerson', { name: 'X' }, '')).status, 401);
    });

    it('creates a person of the caller organization', async () => {
      const r = await call('createPerson', { name: '  Grace Hopper ', email: 'grace@example.com' });
      assert.equal(r.status, 200);
      assert.equal(r.json.error, false);
      const p = r.json.person;
      assert.match(p.uuid, /^[A-Za-z0-9_-]{22}$/);
      assert.deepEqual([p.name, p.email, p.orgUuid], ['Grace Hopper', 'grace@example.com', org.orgUuid]);
      assert.match(p.createdOn, ISO);
      assert.equal(p.updatedOn, p.createdOn);
    });

    it('refuses an empty name and an e-mail that is not one', async () => {
      assert.deepEqual(pick(await call('createPerson', { name: '   ' })), [true, 'name must not be empty']);
      assert.deepEqual(pick(await call('createPerson', { name: 'Bob', email: 'not-an-address' })), [true, 'email "not-an-address" is not an e-mail address']);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('createPerson', { name: 42 })).status, 400);
      assert.equal((await call('createPerson', {})).status, 400);
    });
  });

  describe('POST /api/faceRecognition/person/getPerson', () => {
    it('requires authentication', async () => {
      assert.equal((await call('getPerson', { personUuid: 'A'.repeat(22) }, '')).status, 401);
    });

    it('answers the person, and another organization’s person as not found', async () => {
      const p = await create('Katherine Johnson');
      assert.deepEqual((await call('getPerson', { personUuid: p.uuid })).json.person, p);
      assert.deepEqual(pick(await call('getPerson', { personUuid: p.uuid }, other.apiKey)), [true, 'Person not found']);
      assert.deepEqual(pick(await call('getPerson', { personUuid: 'A'.repeat(22) })), [true, 'Person not found']);
    });

    it('answers 400 to a person uuid that is not a RUUID', async () => {
      assert.equal((await call('getPerson', { personUuid: 'nope' })).status, 400);
    });
  });

  describe('POST /api/faceRecognition/person/findPeopleByOrg', () => {
    it('requires authentication', async () => {
      assert.equal((await call('findPeopleByOrg', {}, '')).status, 401);
    });

    it("lists the organization's people by name, and only them", async () => {
      const theirs = await create('Zed Other');
      await call('createPerson', { name: 'Only Theirs' }, other.apiKey);
      const names = (await call('findPeopleByOrg', {})).json.people.map((p: any) => p.name);
      assert.deepEqual(
        names,
        [...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      assert.ok(names.includes(theirs.name));
      assert.ok(!names.includes('Only Theirs'));
      assert.deepEqual(
        (await call('findPeopleByOrg', {}, other.apiKey)).json.people.map((p: any) => p.name),
        ['Only Theirs'],
      );
    });
  });

  describe('POST /api/faceRecognition/person/updatePerson', () => {
    it('requires authentication', async () => {
      assert.equal((await call('updatePerson', { personSelectiveUpdate: { uuid: 'A'.repeat(22) } }, '')).status, 401);
    });

    it('changes only the fields given, and the face-name match follows a new name', async () => {
      const p = await create('Dorothy Vaughan', 'dorothy@example.com');
      await new Promise((r) => setTimeout(r, 5));
      const renamed = await call('updatePerson', { personSelectiveUpdate: { uuid: p.uuid, name: 'Dorothy J. Vaughan' } });
      assert.equal(renamed.json.error, false, renamed.json.errorMsg);
      assert.deepEqual(
        [renamed.json.person.name, renamed.json.person.email, renamed.json.person.createdOn],
        ['Dorothy J. Vaughan', 'dorothy@example.com', p.createdOn],
      );
      assert.ok(renamed.json.person.updatedOn > p.updatedOn);
      const cleared = await call('updatePerson', { personSelectiveUpdate: { uuid: p.uuid, email: null } });
      assert.deepEqual([cleared.json.person.name, cleared.json.person.email], ['Dorothy J. Vaughan', null]);
      assert.deepEqual((await call('getPerson', { personUuid: p.uuid })).json.person, cleared.json.person);
    });

    it('refuses an empty name, and another organization’s person as not found', async () => {
      const p = await create('Mary Jackson');
      assert.deepEqual(pick(await call('updatePerson', { personSelectiveUpdate: { uuid: p.uuid, name: '' } })), [true, 'name must not be empty']);
      assert.deepEqual(pick(await call('updatePerson', { personSelectiveUpdate: { uuid: p.uuid, name: null } })), [true, 'name must not be empty']);
      assert.deepEqual(pick(await call('updatePerson', { personSelectiveUpdate: { uuid: p.uuid, name: 'Stolen' } }, other.apiKey)), [true, 'Person not found']);
      assert.equal((await call('getPerson', { personUuid: p.uuid })).json.person.name, 'Mary Jackson');
    });

    it('answers 400 to a body without personSelectiveUpdate.uuid', async () => {
      assert.equal((await call('updatePerson', { personSelectiveUpdate: { name: 'X' } })).status, 400);
      assert.equal((await call('updatePerson', {})).status, 400);
    });
  });

  describe('POST /api/faceRecognition/person/deletePerson', () => {
    it('requires authentication', async () => {
      assert.equal((await call('deletePerson', { personUuid: 'A'.repeat(22) }, '')).status, 401);
    });

    it('deletes the person; another organization cannot', async () => {
      const p = await create('Temporary Person');
      assert.deepEqual(pick(await call('deletePerson', { personUuid: p.uuid }, other.apiKey)), [true, 'Person not found']);
      assert.deepEqual(pick(await call('deletePerson', { personUuid: p.uuid })), [false, undefined]);
      assert.deepEqual(pick(await call('getPerson', { personUuid: p.uuid })), [true, 'Person not found']);
      assert.deepEqual(pick(await call('deletePerson', { personUuid: p.uuid })), [true, 'Person not found']);
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await call('deletePerson', { personUuid: 7 })).status, 400);
    });
  });
});

function pick(r: { json: any }): [boolean, string | undefined] {
  return [r.json.error, r.json.errorMsg ?? undefined];
}
