import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { isRuuid } from '../ids.js';

/** What an uploaded or rendered file is kept for: one folder each under the organization's media. */
export const UPLOAD_FOLDERS = ['audio', 'logos', 'floorplans', 'badge-templates', 'profile-photos', 'support-attachments'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

/**
 * Files the organization uploaded (logos, floor plans, badge template images, profile photos, support ticket
 * attachments) or that were rendered for it (audio clips), under the media storage:
 * `<data-dir>/media/<org>/<folder>/<uuid>.<ext>`. A key is built only from RUUIDs and a fixed extension, so no caller input reaches a path. A file is written to a
 * staging name and renamed into place, so a record never points at half a file.
 */
export function uploadKey(orgUuid: string, folder: UploadFolder, uuid: string, ext: string): string {
  if (!isRuuid(orgUuid) || !isRuuid(uuid) || !/^[a-z0-9]{2,4}$/.test(ext)) throw new Error('upload keys are made of RUUIDs');
  return `${orgUuid}/${folder}/${uuid}.${ext}`;
}

export function uploadedFiles(dataDir: string) {
  const root = resolve(dataDir, 'media');
  const pathOf = (key: string) => {
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error(`upload key outside the media storage: ${key}`);
    return path;
  };
  return {
    async write(key: string, bytes: Buffer): Promise<void> {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const staged = join(dirname(path), `.${randomBytes(8).toString('hex')}.part`);
      await writeFile(staged, bytes, { flag: 'wx', mode: 0o600 });
      await rename(staged, path);
    },
    read: (key: string): Promise<Buffer> => readFile(pathOf(key)),
    async remove(key: string): Promise<void> {
      await rm(pathOf(key), { force: true });
    },
  };
}
