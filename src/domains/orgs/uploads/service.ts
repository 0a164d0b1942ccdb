import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { ReadForm } from '../../../edge/multipart-form.js';
import { checkImage } from '../../../footage/image-check.js';
import { uploadKey, uploadedFiles, type UploadFolder } from '../../../footage/uploaded-files.js';
import * as store from './store.js';
import type { UploadedImagesTable } from './tables.js';

/** What an uploaded image is for. */
export const IMAGE_PURPOSES = [...store.LOGO_PURPOSES, 'FLOORPLAN', 'BADGE_TEMPLATE_IMAGE', 'PROFILE_PHOTO'] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

const FOLDERS: Record<ImagePurpose, UploadFolder> = {
  COMPANY_LOGO: 'logos',
  KEYPAD_LOGO: 'logos',
  RHOMBUS_KEY_LOGO: 'logos',
  FLOORPLAN: 'floorplans',
  BADGE_TEMPLATE_IMAGE: 'badge-templates',
  PROFILE_PHOTO: 'profile-photos',
};
/** The purposes of which the organization (or each target) keeps one image: a new one replaces the old. */
const ONE_EACH: ReadonlySet<ImagePurpose> = new Set([...store.LOGO_PURPOSES, 'PROFILE_PHOTO']);

/** An image file is at most 5 MB; a form carries at most 100 of them. */
export const IMAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, maxFiles: 100 } as const;

/** Where the media host serves an uploaded image (to the organization's callers). */
export const uploadedImagePath = (uuid: string) => `/media/uploads/${uuid}`;

/** An uploaded image as the upload operations answer it and the stream carries it. */
export interface UploadedImageRecord {
  uuid: string;
  orgUuid: string;
  purpose: ImagePurpose;
  targetUuid: string | null;
  fileName: string;
  contentType: string;
  byteSize: number;
  width: number;
  height: number;
  uri: string;
  createdAtMillis: number;
}

export const toImageRecord = (row: UploadedImagesTable): UploadedImageRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  purpose: row.purpose as ImagePurpose,
  targetUuid: row.target_uuid,
  fileName: row.file_name,
  contentType: row.content_type,
  byteSize: row.byte_size,
  width: row.width,
  height: row.height,
  uri: uploadedImagePath(row.uuid),
  createdAtMillis: row.created_at_ms,
});

/** What happened to one file of a form. */
export interface FileResult {
  fileName: string;
  success: boolean;
  message: string;
  uuid: string | null;
  targetUuid: string | null;
}

export interface ImageToKeep {
  fileName: string;
  bytes: Buffer | null;
  targetUuid: string | null;
}

/**
 * Keeps images of a purpose: each file is checked as a JPEG or PNG by its content (a refused one is answered,
 * never kept), written to the media storage, then recorded and announced in one transaction, in which an image
 * that the new one replaces goes too (its file after the commit). `check` runs in the transaction first (the
 * target still exists). A failed write leaves no file behind.
 */
export async function keepImages(
  deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>,
  ctx: CallerContext,
  purpose: ImagePurpose,
  images: readonly ImageToKeep[],
  check?: (w: WriteScope) => Promise<void>,
): Promise<FileResult[]> {
  const files = uploadedFiles(deps.config.dataDir);
  const results: FileResult[] = [];
  const accepted: Array<{ row: UploadedImagesTable; bytes: Buffer }> = [];
  for (const image of images) {
    const refuse = (message: string) => results.push({ fileName: image.fileName, success: false, message, uuid: null, targetUuid: image.targetUuid });
    if (!image.bytes) {
      refuse(`is larger than ${IMAGE_LIMITS.maxBytes / (1024 * 1024)} MB`);
      continue;
    }
    const checked = await checkImage(image.bytes);
    if (!checked.ok) {
      refuse(checked.reason);
      continue;
    }
    const uuid = newRuuid();
    const row: UploadedImagesTable = {
      uuid,
      org_uuid: ctx.orgUuid,
      purpose,
      target_uuid: image.targetUuid,
      file_name: image.fileName,
      content_type: checked.mime,
      byte_size: image.bytes.length,
      width: checked.width,
      height: checked.height,
      media_key: uploadKey(ctx.orgUuid, FOLDERS[purpose], uuid, checked.ext),
      created_at_ms: 0,
    };
    results.push({ fileName: image.fileName, success: true, message: 'uploaded', uuid, targetUuid: image.targetUuid });
    accepted.push({ row, bytes: image.bytes });
  }
  for (const { row, bytes } of accepted) await files.write(row.media_key, bytes);
  try {
    await write(deps, ctx, async (w) => {
      await check?.(w);
      for (const { row } of accepted) {
        if (ONE_EACH.has(purpose)) await forgetImagesOf(deps, w, [purpose], row.target_uuid);
        row.created_at_ms = w.nowMs;
        await store.insertImage(w.tx, row);
        w.change({ entity: 'UPLOADED_IMAGE', entityUuid: row.uuid, type: 'CREATE', update: toImageRecord(row) });
      }
    });
  } catch (e) {
    for (const { row } of accepted) await files.remove(row.media_key);
    throw e;
  }
  return results;
}

/** The organization's images of a purpose (of one target when given). */
export async function listImages(
  source: ReadSource,
  orgUuid: string,
  purposes: readonly ImagePurpose[],
  targetUuid?: string | null,
): Promise<UploadedImageRecord[]> {
  return (await store.listImages(dbOf(source), orgUuid, purposes, targetUuid)).map(toImageRecord);
}

export interface OrgLogos {
  companyLogoUuid: string | null;
  companyLogoUrl: string | null;
  keypadLogoUuid: string | null;
  keypadLogoUrl: string | null;
  rhombusKeyLogoUuid: string | null;
  rhombusKeyLogoUrl: string | null;
}

/** The organization's logos, for its record (getOrgV2): each uuid and its URI on the media host, null while none. */
export async function orgLogos(source: ReadSource, orgUuid: string, mediaBase: string): Promise<OrgLogos> {
  const logos = (await store.listOrgLogos(dbOf(source), orgUuid)).map(toImageRecord);
  const of = (p: ImagePurpose) => logos.filter((l) => l.purpose === p).pop() ?? null;
  const [company, keypad, key] = [of('COMPANY_LOGO'), of('KEYPAD_LOGO'), of('RHOMBUS_KEY_LOGO')];
  const url = (l: UploadedImageRecord | null) => (l ? `${mediaBase}${l.uri}` : null);
  return {
    companyLogoUuid: company?.uuid ?? null,
    companyLogoUrl: url(company),
    keypadLogoUuid: keypad?.uuid ?? null,
    keypadLogoUrl: url(keypad),
    rhombusKeyLogoUuid: key?.uuid ?? null,
    rhombusKeyLogoUrl: url(key),
  };
}

/** Deletes the organization's image of a one-each purpose (a logo), with its file; false when it has none. */
export async function deleteOrgImage(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>, ctx: CallerContext, purpose: ImagePurpose): Promise<boolean> {
  return write(deps, ctx, async (w) => (await forgetImagesOf(deps, w, [purpose], null)) > 0);
}

/**
 * Takes the images of a target (null: the organization's own) out in the caller's write, announced; their files go
 * once it commits. Serves a replaced logo, a deleted location's floor plans and a deleted user's photo. Answers how
 * many went.
 */
export async function forgetImagesOf(deps: Pick<Deps, 'config'>, w: WriteScope, purposes: readonly ImagePurpose[], targetUuid: string | null): Promise<number> {
  const rows = await store.listImages(w.tx, w.actor.orgUuid, purposes, targetUuid);
  await store.deleteImages(
    w.tx,
    rows.map((r) => r.uuid),
  );
  for (const r of rows) w.change({ entity: 'UPLOADED_IMAGE', entityUuid: r.uuid, type: 'DELETE', update: toImageRecord(r) });
  w.afterCommit(() =>
    removeImageFiles(
      deps,
      rows.map((r) => r.media_key),
    ),
  );
  return rows.length;
}

/** A deleted user's profile photo goes with them (`deps.recordCleaners.user`). */
export const profilePhotosForgetUser =
  (deps: Pick<Deps, 'config'>) =>
  async (w: WriteScope, userUuid: string): Promise<void> => {
    await forgetImagesOf(deps, w, ['PROFILE_PHOTO'], userUuid);
  };

async function removeImageFiles(deps: Pick<Deps, 'config'>, keys: readonly string[]): Promise<void> {
  for (const key of keys) await uploadedFiles(deps.config.dataDir).remove(key);
}

/** An uploaded image of the organization, for the media host; null for another organization's or none. */
export async function uploadedImage(
  deps: Pick<Deps, 'store' | 'config'>,
  orgUuid: string,
  uuid: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  const row = await store.findImage(deps.store.db, orgUuid, uuid);
  return row ? { bytes: await uploadedFiles(deps.config.dataDir).read(row.media_key), contentType: row.content_type } : null;
}

/** One image, the form's only file (any part name). */
export function onlyImage(form: ReadForm): { fileName: string; bytes: Buffer | null } {
  if (form.files.length !== 1) throw fail('INVALID_VALUE', `file: give exactly one image file (the form has ${form.files.length})`);
  return form.files[0];
}
