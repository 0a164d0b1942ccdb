import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EmptyRequest, Field, ResponseOf } from '../../../schemas/common.js';
import { addDoorLabel, doorLabelsOfOrg, removeDoorLabel } from './door-labels.service.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

const tags = ['AccessControl', 'Component'];
const DoorLabelRequest = Type.Object({ accessControlledDoorUuid: RefUuid('door', { notFound: 'Door' }), label: Type.String({ minLength: 1, maxLength: 100 }) });
const Empty = ResponseOf({});

/** Door labels: grants and revocations that name a label cover every door that carries it. */
export function doorLabelRoutes(app: ApiApp, deps: Deps): void {
  const changes = [
    ['addAccessControlledDoorLabel', 'Add a label to an access controlled door', addDoorLabel],
    ['removeAccessControlledDoorLabel', 'Remove a label from an access controlled door', removeDoorLabel],
  ] as const;
  for (const [operationId, summary, change] of changes) {
    operation(
      app,
      { path: `/api/component/${operationId}`, operationId, summary, tags, body: DoorLabelRequest, response: Empty },
      async (input, ctx) => (await change(deps, ctx, input), {}),
    );
  }
  operation(
    app,
    {
      path: '/api/component/getAccessControlledDoorLabelsForOrg',
      operationId: 'getAccessControlledDoorLabelsForOrg',
      summary: 'Get every access controlled door label of the organization',
      tags,
      body: EmptyRequest,
      response: ResponseOf({
        accessControlledDoorLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'door uuid to its labels' })),
      }),
    },
    async (_input, ctx) => ({ accessControlledDoorLabels: await doorLabelsOfOrg(deps, ctx.orgUuid) }),
  );
}
