import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { absoluteRecordMediaUris } from '../../edge/media-uris.js';
import { changeMessageBody } from '../../store/change-event.js';
import * as schemas from './schemas.js';
import { changesAfterPosition } from './service.js';

/**
 * Gatehouse extension operations (not in the platform's catalogue): the stream's change log, by position, for
 * clients that poll rather than subscribe (docs/streaming.md, "Resume").
 */
export function changeRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/gatehouse/listChangesAfter',
      extension: true,
      operationId: 'gatehouseListChangesAfter',
      summary: 'Gatehouse extension: the changes of the organization after a stream position',
      description:
        "The durable change log the stream delivers from, oldest first: the same changes as the MESSAGE bodies of /topic/change/{orgUuid}, each with its position. A position past the organization's last, or older than the log keeps, is refused.",
      tags: ['Gatehouse extensions'],
      body: schemas.ListChangesAfterRequest,
      response: schemas.ListChangesAfterResponse,
    },
    async (input, ctx) => {
      const page = await changesAfterPosition(deps, ctx.orgUuid, input.afterPosition, input.limit);
      // The records' media links absolute, as the stream's MESSAGE bodies carry them.
      const change = (e: (typeof page.changes)[number]) => {
        const body = changeMessageBody(e);
        return { position: e.position, ...body, update: absoluteRecordMediaUris(body.update, deps.mediaHost.base) };
      };
      return { ...page, changes: page.changes.map(change) };
    },
  );
}
