import type { ReadSource } from '../../store/reader.js';
import { findDevice, findLocation } from '../devices/service.js';

/*
 * Checks of the identifiers in integration settings against the caller's organization. An identifier that
 * is not one of its records goes to `failed` (answered as failedGuids) and is left out of what is saved.
 */

function addFailed(failed: string[], id: string) {
  if (!failed.includes(id)) failed.push(id);
}

/** The identifiers that are cameras of the organization, without repeats, in order. */
export async function keepCameras(source: ReadSource, orgUuid: string, ids: readonly string[], failed: string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const id of new Set(ids)) {
    if (await findDevice(source, orgUuid, id, ['CAMERA'])) kept.push(id);
    else addFailed(failed, id);
  }
  return kept;
}

/** The identifier when it is a location of the organization, else null. */
export async function keepLocation(source: ReadSource, orgUuid: string, id: string | null | undefined, failed: string[]): Promise<string | null> {
  if (!id) return null;
  if (await findLocation(source, orgUuid, id)) return id;
  addFailed(failed, id);
  return null;
}
