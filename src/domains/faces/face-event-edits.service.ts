import { createHash } from 'node:crypto';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { renderFrame } from '../../footage/render.js';
import { write } from '../../bus/write.js';
import { findDevice } from '../devices/service.js';
import { FACE_EVENT_ENTITY, toFaceEvent } from './face-events.service.js';
import type { FaceEventRecord } from './face-events.schemas.js';
import * as events from './face-events.store.js';
import { faceKey, faceStorage } from './face-storage.js';
import { checkImage } from '../../footage/image-check.js';
import { toMatchmakerRecord, type FaceMatchmakerRecord } from './records.js';
import { createPerson, findPerson, findPersonByName } from './service.js';
import * as store from './store.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/**
 * updateFaceEvent: says who a sighting is of, by personUuid (a person of the organization) or by personName (the
 * person of that name, created when there is none, as an upload with createPersonIfNotFound would). The
 * camera's own best match stays in topPersonMatches. A FACE_EVENT UPDATE.
 */
export async function updateFaceEvent(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { eventUuid: string; personUuid?: string | null; personName?: string | null },
): Promise<FaceEventRecord> {
  const name = input.personName?.trim();
  if (!input.personUuid && !name) throw fail('INVALID_VALUE', 'give personUuid or personName: who the face is of');
  return write(deps, ctx, async (w) => {
    const row = await events.findFaceEvent(w.tx, ctx.orgUuid, input.eventUuid);
    if (!row) throw fail('NOT_FOUND', 'Face event');
    const person = input.personUuid
      ? await findPerson(w, ctx.orgUuid, input.personUuid)
      : ((await findPersonByName(w, ctx.orgUuid, name!)) ?? (await createPerson(w, { name: name! })));
    if (!person) throw fail('NOT_FOUND', 'Person');
    await events.setFaceEventPerson(w.tx, ctx.orgUuid, row.uuid, person);
    const record = toFaceEvent({ ...row, person_uuid: person.uuid, face_name: person.name });
    w.change({ entity: FACE_EVENT_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: record });
    return record;
  });
}

/** deleteFaceEvent: the sighting is gone from every list and search. A FACE_EVENT DELETE. */
export async function deleteFaceEvent(deps: WriteDeps, ctx: CallerContext, eventUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await events.findFaceEvent(w.tx, ctx.orgUuid, eventUuid);
    if (!row) throw fail('NOT_FOUND', 'Face event');
    await events.deleteFaceEvent(w.tx, ctx.orgUuid, row.uuid);
    w.change({ entity: FACE_EVENT_ENTITY, entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: toFaceEvent(row) });
  });
}

/**
 * createFaceMatchmakerFromSighting: makes the sighting's picture (the camera's frame at its time, a real JPEG)
 * a face of the person named, or of the person it is of. The face is stored as an uploaded one would be
 * (findFaceMatchmakersByPerson, getFaceMatchmakerImage); an unidentified sighting becomes the person's.
 */
export async function createFaceMatchmakerFromSighting(
  deps: WriteDeps & Pick<Deps, 'config'>,
  ctx: CallerContext,
  input: { faceEventUuid: string; personUuid?: string | null },
): Promise<FaceMatchmakerRecord> {
  const sighting = await events.findFaceEvent(deps.store.db, ctx.orgUuid, input.faceEventUuid);
  if (!sighting) throw fail('NOT_FOUND', 'Face event');
  const personUuid = input.personUuid ?? sighting.person_uuid;
  if (!personUuid) throw fail('INVALID_VALUE', 'the sighting is of no known person: give personUuid');
  const camera = await findDevice(deps, ctx.orgUuid, sighting.device_uuid);
  const bytes = await renderFrame({ cameraName: camera?.name ?? 'Camera', atMs: Number(sighting.timestamp_ms), width: 480, height: 270 });
  const image = await checkImage(bytes);
  if (!image.ok) throw new Error(`the rendered frame is not an image: ${image.reason}`);
  const storage = faceStorage(deps.config.dataDir);
  const staged = await storage.stage(ctx.orgUuid, bytes);
  let committed: string | null = null;
  try {
    return await write(deps, ctx, async (w) => {
      const row = await events.findFaceEvent(w.tx, ctx.orgUuid, sighting.uuid);
      if (!row) throw fail('NOT_FOUND', 'Face event');
      const person = await findPerson(w, ctx.orgUuid, personUuid);
      if (!person) throw fail('NOT_FOUND', 'Person');
      const id = newRuuid();
      const key = faceKey(ctx.orgUuid, person.uuid, id, image.ext);
      const face = {
        id,
        org_uuid: ctx.orgUuid,
        person_uuid: person.uuid,
        transaction_id: row.uuid,
        file_name: `sighting-${row.uuid}.${image.ext}`,
        content_type: image.mime,
        byte_count: bytes.length,
        width: image.width,
        height: image.height,
        sha256_hex: createHash('sha256').update(bytes).digest('hex'),
        storage_key: key,
        created_at_ms: w.nowMs,
      };
      await store.insertMatchmaker(w.tx, face);
      w.change({ entity: 'FACE_MATCHMAKER', entityUuid: id, type: 'CREATE', update: toMatchmakerRecord(face) });
      if (row.person_uuid !== person.uuid) {
        await events.setFaceEventPerson(w.tx, ctx.orgUuid, row.uuid, person);
        const update = toFaceEvent({ ...row, person_uuid: person.uuid, face_name: person.name });
        w.change({ entity: FACE_EVENT_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update });
      }
      await storage.commit(staged, key);
      committed = key;
      return toMatchmakerRecord(face);
    });
  } catch (e) {
    // The record did not commit: the image it would have pointed at goes too.
    if (committed) await storage.remove(committed);
    throw e;
  } finally {
    await storage.discard(staged);
  }
}
