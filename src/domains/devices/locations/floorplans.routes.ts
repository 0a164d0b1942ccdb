import type { Deps } from '../../../deps.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { formParts, readForm, registerMultipartForm } from '../../../edge/multipart-form.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { fail } from '../../../errors.js';
import { isRuuid } from '../../../ids.js';
import { IMAGE_LIMITS, keepImages, listImages, onlyImage } from '../../orgs/uploads/service.js';
import { ImageForm, UploadImageResponse } from '../../orgs/uploads/schemas.js';
import { findLocation } from '../service.js';

/** A location's floor plans (multipart): each is an image of the location, answered in its floorPlans. */
export async function floorplanRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    const api = scope as ApiApp;
    await registerMultipartForm(api, { fileSize: IMAGE_LIMITS.maxBytes, files: 1 });
    operation(
      api,
      {
        path: '/api/upload/floorplan',
        operationId: 'uploadNewFloorPlan',
        summary: 'Upload a floor plan of a location',
        description: 'The form names the location (locationUuid) and carries one JPEG or PNG image of at most 5 MB; the location lists it in its floorPlans.',
        tags: ['Upload'],
        consumes: ['multipart/form-data'],
        permission: { functionality: 'LOCATION_ADMINISTRATION' },
        body: ImageForm({ locationUuid: 'the location the floor plan is of' }),
        response: UploadImageResponse,
      },
      async (_input, ctx, request) => {
        const form = await readForm(formParts(request));
        const locationUuid = form.fields.get('locationUuid') ?? (request.query as Record<string, unknown> | undefined)?.locationUuid;
        if (typeof locationUuid !== 'string' || !isRuuid(locationUuid)) throw fail('INVALID_VALUE', 'locationUuid: the form must name the location (a RUUID)');
        const image = onlyImage(form);
        const [result] = await keepImages(deps, ctx, 'FLOORPLAN', [{ ...image, targetUuid: locationUuid }], async (w) => {
          if (!(await findLocation(w, ctx.orgUuid, locationUuid))) throw fail('NOT_FOUND', `Location ${locationUuid}`);
        });
        if (!result.success) throw fail('INVALID_VALUE', `${result.fileName || 'file'}: ${result.message}`);
        const kept = (await listImages(deps, ctx.orgUuid, ['FLOORPLAN'], locationUuid)).find((i) => i.uuid === result.uuid)!;
        return { uuid: kept.uuid, uri: mediaUrl(deps, kept.uri), image: { ...kept, uri: mediaUrl(deps, kept.uri) } };
      },
    );
  });
}
