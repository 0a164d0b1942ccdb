import type { Deps } from '../../../deps.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { formParts, readForm, registerMultipartForm } from '../../../edge/multipart-form.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { fail } from '../../../errors.js';
import { listUsers } from '../users/service.js';
import * as s from './schemas.js';
import { deleteOrgImage, IMAGE_LIMITS, keepImages, listImages, onlyImage, type ImagePurpose } from './service.js';

const tags = ['Upload'];

/** The organization's image uploads (multipart): its logos, badge template images and its users' profile photos. */
export async function orgUploadRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    const api = scope as ApiApp;
    await registerMultipartForm(api, { fileSize: IMAGE_LIMITS.maxBytes, files: IMAGE_LIMITS.maxFiles });
    const logo = (path: string, operationId: string, what: string, purpose: ImagePurpose) =>
      operation(
        api,
        {
          path,
          operationId,
          summary: `Upload the organization's ${what}`,
          description: `One JPEG or PNG image (checked by its content) of at most 5 MB; it replaces the ${what} before it, and getOrgV2 names it.`,
          tags,
          consumes: ['multipart/form-data'],
          permission: { functionality: 'ORG_ADMINISTRATION' },
          body: s.ImageForm(),
          response: s.UploadImageResponse,
        },
        async (_input, ctx, request) => {
          const [result] = await keepImages(deps, ctx, purpose, [{ ...onlyImage(await readForm(formParts(request))), targetUuid: null }]);
          if (!result.success) throw fail('INVALID_VALUE', `${result.fileName || 'file'}: ${result.message}`);
          const image = (await listImages(deps, ctx.orgUuid, [purpose], null)).find((i) => i.uuid === result.uuid)!;
          return { uuid: image.uuid, uri: mediaUrl(deps, image.uri), image: { ...image, uri: mediaUrl(deps, image.uri) } };
        },
      );
    logo('/api/upload/companyLogo', 'uploadCompanyLogo', 'company logo', 'COMPANY_LOGO');
    logo('/api/upload/keypadLogo', 'uploadKeypadLogo', 'keypad logo', 'KEYPAD_LOGO');
    logo('/api/upload/rhombusKeyLogo', 'uploadRhombusKeyLogo', 'Rhombus Key app logo', 'RHOMBUS_KEY_LOGO');
    operation(
      api,
      {
        path: '/api/upload/badgeTemplate/images',
        operationId: 'uploadBadgeTemplateImages',
        summary: 'Upload images for badge templates',
        description: 'Up to 100 JPEG or PNG images of at most 5 MB each; each file is answered on its own.',
        tags,
        consumes: ['multipart/form-data'],
        body: s.ImageForm({}, 'one or more .jpg or .png images of at most 5 MB each; any part name'),
        response: s.UploadImagesResponse,
      },
      async (_input, ctx, request) => {
        const form = await readForm(formParts(request));
        if (form.files.length === 0) throw fail('INVALID_VALUE', 'file: give at least one image file');
        return {
          fileUploadResults: await keepImages(
            deps,
            ctx,
            'BADGE_TEMPLATE_IMAGE',
            form.files.map((f) => ({ ...f, targetUuid: null })),
          ),
        };
      },
    );
    operation(
      api,
      {
        path: '/api/upload/bulkUploadUserProfilePhotos',
        operationId: 'bulkUploadUserProfilePhotos',
        summary: "Upload users' profile photos",
        description:
          "Up to 100 JPEG or PNG photos of at most 5 MB each. A file's name without its extension names its user: an e-mail address or a user's name. " +
          "A photo replaces the user's photo before it; a file that names no user is answered unmatched.",
        tags,
        consumes: ['multipart/form-data'],
        permission: { functionality: 'USER_ADMINISTRATION' },
        body: s.ImageForm({}, 'one or more .jpg or .png photos named after their users; any part name'),
        response: s.UploadImagesResponse,
      },
      async (_input, ctx, request) => {
        const form = await readForm(formParts(request));
        if (form.files.length === 0) throw fail('INVALID_VALUE', 'file: give at least one photo');
        const users = await listUsers(deps, ctx);
        const byKey = new Map<string, string>();
        for (const u of users) {
          if (u.email) byKey.set(u.email.toLowerCase(), u.uuid);
          if (u.name) byKey.set(u.name.toLowerCase(), u.uuid);
        }
        const stem = (fileName: string) =>
          fileName
            .replace(/\.[^.]*$/, '')
            .trim()
            .toLowerCase();
        const matched = form.files.filter((f) => byKey.has(stem(f.fileName)));
        const kept = await keepImages(
          deps,
          ctx,
          'PROFILE_PHOTO',
          matched.map((f) => ({ ...f, targetUuid: byKey.get(stem(f.fileName))! })),
        );
        const unmatched = form.files
          .filter((f) => !byKey.has(stem(f.fileName)))
          .map((f) => ({
            fileName: f.fileName,
            success: false,
            message: 'names no user of the organization (by e-mail address or name)',
            uuid: null,
            targetUuid: null,
          }));
        return { fileUploadResults: [...kept, ...unmatched] };
      },
    );
  });
  // The logos' deletes take JSON, outside the multipart scope.
  const deleteLogo = (path: string, operationId: string, what: string, purpose: ImagePurpose) =>
    operation(
      app,
      {
        path,
        operationId,
        summary: `Delete the organization's ${what}`,
        description: `The ${what} and its file go; getOrgV2 names none after. An organization without one is answered as such.`,
        tags: ['Org'],
        permission: { functionality: 'ORG_ADMINISTRATION' },
        body: s.DeleteLogoRequest,
        response: s.DeleteLogoResponse,
      },
      async (_input, ctx) => {
        if (!(await deleteOrgImage(deps, ctx, purpose))) throw fail('NOT_FOUND', `The organization's ${what}`);
        return {};
      },
    );
  deleteLogo('/api/org/deleteKeypadLogo', 'deleteKeypadLogo', 'keypad logo', 'KEYPAD_LOGO');
  deleteLogo('/api/org/deleteRhombusKeyLogo', 'deleteRhombusKeyLogo', 'Rhombus Key app logo', 'RHOMBUS_KEY_LOGO');
}
