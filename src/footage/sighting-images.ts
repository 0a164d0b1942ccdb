import { RUUID_PATTERN } from '../ids.js';

/**
 * The image keys of sightings (a face event's, a plate read's), as the REST API answers them in `imageS3Key` and
 * `thumbnailS3Key`: the platform's clients fetch `/media/faces?s3ObjectKey=<key>` (client-calls.md M14). A key
 * names the organization, the sighting and the size; the media host renders the sighting's camera at its time.
 */
export type SightingKind = 'face' | 'plate';
export type SightingSize = 'thumb' | 'image';

export const sightingImageKey = (kind: SightingKind, orgUuid: string, uuid: string, size: SightingSize) => `${orgUuid}/${kind}-events/${uuid}/${size}.jpeg`;

const RUUID = RUUID_PATTERN.replace(/^\^|\$$/g, '');
const KEY = new RegExp(`^(${RUUID})/(face|plate)-events/(${RUUID})/(thumb|image)\\.jpeg$`);

export function parseSightingImageKey(key: string): { orgUuid: string; kind: SightingKind; uuid: string; size: SightingSize } | null {
  const m = KEY.exec(key);
  return m ? { orgUuid: m[1], kind: m[2] as SightingKind, uuid: m[3], size: m[4] as SightingSize } : null;
}
