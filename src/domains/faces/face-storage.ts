import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { isRuuid } from '../../ids.js';

/**
 * Where face images live: the media host's storage under the data dir, `<data-dir>/media/<org>/faces/...`.
 * A key is the path below `media/` and is built only from RUUIDs, so no caller input ever reaches a path.
 * An accepted upload is first staged (written once, checked), then moved to its key by a rename on the
 * same file system, so a face record never points at a half-written file.
 */
export interface FaceStorage {
  stage(orgUuid: string, bytes: Buffer): Promise<string>;
  /** Moves a staged file to its key. */
  commit(stagedPath: string, key: string): Promise<void>;
  /** Removes a staged file that was not committed (nothing when it was). */
  discard(stagedPath: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

export function faceKey(orgUuid: string, personUuid: string, faceId: string, ext: string): string {
  if (![orgUuid, personUuid, faceId].every(isRuuid) || !/^[a-z]+$/.test(ext)) throw new Error('face keys are made of RUUIDs');
  return `${orgUuid}/faces/${personUuid}/${faceId}.${ext}`;
}

export function faceStorage(dataDir: string): FaceStorage {
  const root = resolve(dataDir, 'media');
  const pathOf = (key: string) => {
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error(`face key outside the media storage: ${key}`);
    return path;
  };
  return {
    async stage(orgUuid, bytes) {
      if (!isRuuid(orgUuid)) throw new Error('staging needs an organization RUUID');
      const path = join(root, orgUuid, 'faces', '.incoming', `${randomBytes(12).toString('hex')}.part`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
      return path;
    },
    async commit(stagedPath, key) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await rename(stagedPath, path);
    },
    async discard(stagedPath) {
      await rm(stagedPath, { force: true });
    },
    read: (key) => readFile(pathOf(key)),
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
