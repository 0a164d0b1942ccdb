import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import type { ReadSource } from '../store/reader.js';

/**
 * The kinds of record that one domain's requests name by id and another domain keeps. A domain that keeps a
 * kind provides its finder in the composition root (`deps.recordFinders`, src/open-deps.ts), so that a domain
 * below it can check an id it is given without importing the domain above (a permission group names locations,
 * a camera names its policy).
 */
export const RECORD_KINDS = { location: 'Location', cameraPolicy: 'Camera policy', buttonRule: 'Button rule' } as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/** Which of `uuids` name a record of the kind in the organization (another organization's answer as missing). */
export type RecordFinder = (source: ReadSource, orgUuid: string, uuids: readonly string[]) => Promise<ReadonlySet<string>>;

declare module '../deps.js' {
  interface Deps {
    /** Each record kind's finder, from the domain that keeps it. */
    recordFinders: Readonly<Record<RecordKind, RecordFinder>>;
  }
}

/** Refuses with NOT_FOUND (`Location <uuid>`) the first of `uuids` that names no record of the kind in the organization. */
export async function requireRecords(
  deps: Pick<Deps, 'recordFinders'>,
  source: ReadSource,
  orgUuid: string,
  kind: RecordKind,
  uuids: readonly string[],
): Promise<void> {
  if (uuids.length === 0) return;
  const found = await deps.recordFinders[kind](source, orgUuid, uuids);
  const missing = uuids.find((uuid) => !found.has(uuid));
  if (missing !== undefined) throw fail('NOT_FOUND', `${RECORD_KINDS[kind]} ${missing}`);
}
