import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './kiosks.schemas.js';
import { updateKiosk } from './kiosks.service.js';

/** The guest check-in kiosks. */
export function kioskRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/kiosk/updateKiosk',
      operationId: 'updateKiosk',
      summary: 'Set the selected fields of a guest kiosk',
      description: 'With updatedSetMethodMap, the fields it marks true are set; without it, every field given.',
      tags: ['Kiosk'],
      body: schemas.UpdateKioskRequest,
      response: schemas.UpdateKioskResponse,
    },
    async (input, ctx) => (await updateKiosk(deps, ctx, input.kioskUpdate), {}),
  );
}
