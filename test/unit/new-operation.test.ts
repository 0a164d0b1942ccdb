import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainFolderOf } from '../../scripts/lib/domain-folders.js';
import { TypeBoxWriter } from '../../scripts/lib/typebox-from-catalogue.js';

describe('npm run new-operation: domain folders and TypeBox from the catalogue', () => {
  it('places an operation by the longest URL prefix of CONTRIBUTING.md, and none for an unlisted family', () => {
    assert.equal(domainFolderOf('/api/component/elevator/findX'), 'devices/elevators');
    assert.equal(domainFolderOf('/api/component/findAccessControlledDoors'), 'access/doors');
    assert.equal(domainFolderOf('/api/policy/createSchedule'), 'schedules');
    assert.equal(domainFolderOf('/api/nosuchfamily/op'), null);
  });

  it('writes field names and types (required, RUUIDs, enums, arrays, references) and no descriptions; id fields of a request as placeholders to choose', () => {
    const writer = new TypeBoxWriter({
      Thing: { type: 'object', properties: { kind: { type: 'string', enum: ['A', "B'C"] }, count: { type: 'integer' } } },
    });
    const request = writer.object(
      {
        type: 'object',
        required: ['uuid'],
        properties: {
          uuid: { type: 'string', format: 'RUUID' },
          cameraUuids: { type: 'array', items: { type: 'string' } },
          partnerId: { type: 'string' },
          things: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          'odd-name': { type: 'boolean' },
        },
      },
      false,
      1,
    );
    assert.equal(
      request,
      [
        'Type.Object({',
        "  uuid: RefUuid('TODO_KIND'),",
        "  cameraUuids: Type.Optional(Type.Array(NotRef('TODO_REASON', Type.String()))),",
        "  partnerId: Type.Optional(NotRef('TODO_REASON', Type.String())),",
        '  things: Type.Optional(Type.Array(Type.Object({',
        "    kind: Type.Optional(Type.Union([Type.Literal('A'), Type.Literal('B\\'C')])),",
        '    count: Type.Optional(Type.Integer()),',
        '  }))),',
        "  'odd-name': Type.Optional(Type.Boolean()),",
        '})',
      ].join('\n'),
    );
    const response = writer.object(
      {
        type: 'object',
        properties: { error: { type: 'boolean' }, total: { type: 'number', description: 'not copied' }, uuid: { type: 'string', format: 'RUUID' } },
      },
      true,
      1,
    );
    assert.equal(response, 'Type.Object({\n  total: Field(Type.Number()),\n  uuid: Field(Ruuid()),\n})');
  });
});
