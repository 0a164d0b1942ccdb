import { createHash } from 'node:crypto';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { toDbBool } from '../../store/columns.js';
import { write, type WriteScope } from '../../bus/write.js';
import { faceKey, faceStorage, type FaceStorage } from './face-storage.js';
import { checkImage, type ImageType } from '../../footage/image-check.js';
import { baseFileName, personMatchKey, personNameOfFile } from './names.js';
import { toMatchmakerRecord, toPersonRecord, toUploadRecord, type FaceMatchmakerRecord, type FaceUploadRecord } from './records.js';
import { createPerson, getPerson } from './service.js';
import * as store from './store.js';

type FaceDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>;

/** The platform's limit per uploaded image. */
export const MAX_FACE_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_TRANSACTION_ID = 200;

/** One part of an upload form, as the HTTP edge hands it over, in the order the form carries them. */
export type UploadPart =
  | { kind: 'field'; name: string; value: string }
  /** `read` answers the file's bytes, or null when it is larger than MAX_FACE_IMAGE_BYTES (then never held whole). */
  | { kind: 'file'; fileName: string; read(): Promise<Buffer | null> };

export interface UploadInput {
  /** From the query string, as the platform's clients send them; form fields of the same names are the fallback. */
  transaction?: string;
  createPersonIfNotFound?: string;
  parts: AsyncIterable<UploadPart>;
}

export interface FileUploadResult {
  fileName: string;
  message: string | null;
  success: boolean;
}

type StagedFile =
  | { fileName: string; error: string }
  | { fileName: string; error?: undefined; path: string; image: ImageType & { width: number; height: number }; bytes: number; sha256Hex: string };

function parseFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  throw fail('INVALID_VALUE', `createPersonIfNotFound must be true or false, got "${value.slice(0, 20)}"`);
}

function parseTransaction(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (v.length > MAX_TRANSACTION_ID) throw fail('INVALID_VALUE', `transaction must be at most ${MAX_TRANSACTION_ID} characters`);
  return v;
}

/** Reads one file part: too large, not really a JPEG or PNG, or nameless is refused here; an accepted one is staged. */
async function stageFile(storage: FaceStorage, orgUuid: string, part: Extract<UploadPart, { kind: 'file' }>): Promise<StagedFile> {
  const fileName = baseFileName(part.fileName);
  const bytes = await part.read();
  if (!bytes) return { fileName, error: `${fileName} is larger than the 5 MB limit` };
  if (!personNameOfFile(fileName)) return { fileName, error: 'the file has no name to match a person by' };
  const image = await checkImage(bytes);
  if (!image.ok) return { fileName, error: `${fileName} ${image.reason}` };
  const { ok: _, ...type } = image;
  const path = await storage.stage(orgUuid, bytes);
  return { fileName, path, image: type, bytes: bytes.length, sha256Hex: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Uploads face images: each file is matched by its name (without extension, case and white space aside) to
 * a person of the organization, who is created when none matches and createPersonIfNotFound is true; the
 * image is stored as that person's face. Every file answers one result, in order, and leaves one row in the
 * transaction's upload log; a refused file does not stop the others. Files are staged as they arrive, so
 * the form's fields may come before or after them.
 */
export async function uploadFaceMatchmakers(
  deps: FaceDeps,
  ctx: CallerContext,
  input: UploadInput,
): Promise<{ transactionId: string; fileUploadResults: FileUploadResult[] }> {
  let transactionId = parseTransaction(input.transaction);
  let createIfNotFound = parseFlag(input.createPersonIfNotFound);
  const storage = faceStorage(deps.config.dataDir);
  const staged: StagedFile[] = [];
  const fields = new Map<string, string>();
  try {
    for await (const part of input.parts) {
      if (part.kind === 'field') fields.set(part.name, part.value);
      else staged.push(await stageFile(storage, ctx.orgUuid, part));
    }
    transactionId ??= parseTransaction(fields.get('transaction') ?? fields.get('transactionId')) ?? newRuuid();
    createIfNotFound ??= parseFlag(fields.get('createPersonIfNotFound')) ?? false;
    if (staged.length === 0) throw fail('INVALID_VALUE', 'the upload holds no image file');
    const fileUploadResults: FileUploadResult[] = [];
    for (const file of staged) fileUploadResults.push(await storeFile(deps, ctx, storage, file, transactionId, createIfNotFound));
    return { transactionId, fileUploadResults };
  } finally {
    await Promise.all(staged.map((f) => (f.error === undefined ? storage.discard(f.path) : null)));
  }
}

async function storeFile(
  deps: FaceDeps,
  ctx: CallerContext,
  storage: FaceStorage,
  file: StagedFile,
  transactionId: string,
  createIfNotFound: boolean,
): Promise<FileUploadResult> {
  const log = { org_uuid: ctx.orgUuid, transaction_id: transactionId, file_name: file.fileName };
  const refuse = (w: WriteScope, message: string) => {
    w.audit({ entity: 'FACE_UPLOAD', entityUuid: transactionId, action: 'REFUSE' });
    return store.insertUpload(w.tx, {
      ...log,
      success: toDbBool(false)!,
      error_msg: message,
      face_id: null,
      person_uuid: null,
      storage_key: null,
      created_at_ms: w.nowMs,
    });
  };
  if (file.error !== undefined) {
    await write(deps, ctx, (w) => refuse(w, file.error));
    return { fileName: file.fileName, message: file.error, success: false };
  }
  const name = personNameOfFile(file.fileName);
  const faceId = newRuuid();
  let storedKey: string | null = null;
  try {
    return await write(deps, ctx, async (w) => {
      const found = await store.findPersonByMatchKey(w.tx, ctx.orgUuid, personMatchKey(name));
      if (!found && !createIfNotFound) {
        const message = `No person named "${name}" was found (set createPersonIfNotFound to create one)`;
        await refuse(w, message);
        return { fileName: file.fileName, message, success: false };
      }
      const person = found ? toPersonRecord(found) : await createPerson(w, { name });
      const key = faceKey(ctx.orgUuid, person.uuid, faceId, file.image.ext);
      await storage.commit(file.path, key);
      storedKey = key;
      const row = {
        id: faceId,
        org_uuid: ctx.orgUuid,
        person_uuid: person.uuid,
        transaction_id: transactionId,
        file_name: file.fileName,
        content_type: file.image.mime,
        byte_count: file.bytes,
        width: file.image.width,
        height: file.image.height,
        sha256_hex: file.sha256Hex,
        storage_key: key,
        created_at_ms: w.nowMs,
      };
      await store.insertMatchmaker(w.tx, row);
      await store.insertUpload(w.tx, {
        ...log,
        success: toDbBool(true)!,
        error_msg: null,
        face_id: faceId,
        person_uuid: person.uuid,
        storage_key: key,
        created_at_ms: w.nowMs,
      });
      w.change({ entity: 'FACE_MATCHMAKER', entityUuid: faceId, type: 'CREATE', update: toMatchmakerRecord(row) });
      return { fileName: file.fileName, message: null, success: true };
    });
  } catch (e) {
    // The record did not commit: the image it would have pointed at goes too.
    if (storedKey) await storage.remove(storedKey);
    throw e;
  }
}

export async function findUploadsOfTransaction(deps: Pick<Deps, 'store'>, ctx: CallerContext, transactionId: string): Promise<FaceUploadRecord[]> {
  return (await store.listUploadsOfTransaction(deps.store.db, ctx.orgUuid, transactionId)).map(toUploadRecord);
}

export async function findMatchmakersOfPerson(deps: Pick<Deps, 'store'>, ctx: CallerContext, personUuid: string): Promise<FaceMatchmakerRecord[]> {
  await getPerson(deps, ctx, personUuid);
  return (await store.listMatchmakersOfPerson(deps.store.db, ctx.orgUuid, personUuid)).map(toMatchmakerRecord);
}

export async function findMatchmakersOfOrg(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<FaceMatchmakerRecord[]> {
  return (await store.listMatchmakersOfOrg(deps.store.db, ctx.orgUuid)).map(toMatchmakerRecord);
}

export async function getMatchmaker(deps: Pick<Deps, 'store'>, ctx: CallerContext, faceId: string): Promise<FaceMatchmakerRecord> {
  const row = await store.findMatchmaker(deps.store.db, ctx.orgUuid, faceId);
  if (!row) throw fail('NOT_FOUND', 'Face matchmaker');
  return toMatchmakerRecord(row);
}

/** The stored image of one of the organization's faces. */
export async function readMatchmakerImage(
  deps: Pick<Deps, 'store' | 'config'>,
  ctx: CallerContext,
  faceId: string,
): Promise<{ face: FaceMatchmakerRecord; bytes: Buffer }> {
  const row = await store.findMatchmaker(deps.store.db, ctx.orgUuid, faceId);
  if (!row) throw fail('NOT_FOUND', 'Face matchmaker');
  const bytes = await faceStorage(deps.config.dataDir)
    .read(row.storage_key)
    .catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw fail('NOT_FOUND', 'Face image');
      throw e;
    });
  return { face: toMatchmakerRecord(row), bytes };
}

/** Deletes one face; its image goes from storage once the deletion has committed. */
export async function deleteMatchmaker(deps: FaceDeps, ctx: CallerContext, faceId: string): Promise<void> {
  const key = await write(deps, ctx, async (w) => {
    const row = await store.findMatchmaker(w.tx, ctx.orgUuid, faceId);
    if (!row) throw fail('NOT_FOUND', 'Face matchmaker');
    await store.deleteMatchmaker(w.tx, ctx.orgUuid, faceId);
    w.change({ entity: 'FACE_MATCHMAKER', entityUuid: faceId, type: 'DELETE', update: toMatchmakerRecord(row) });
    return row.storage_key;
  });
  await faceStorage(deps.config.dataDir).remove(key);
}
