import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Type } from 'typebox';
import { mediaUriFields, rememberMediaUriNames } from '../../../src/edge/media-uris.js';
import type { JsonSchema } from '../../../src/schemas/json-schema.js';
import { MediaUri, MediaUriMap } from '../../../src/schemas/common.js';
import { PreparedChange } from '../../../src/streaming/hub.js';

it("a change's MESSAGE body carries the record's media links absolute, and nothing else changed", () => {
  const answer = Type.Object({ alerts: Type.Array(Type.Object({ thumbnailLocationV2: MediaUri('t'), clipLocationMapV2: MediaUriMap('c') })) });
  rememberMediaUriNames(mediaUriFields(answer as unknown as JsonSchema));
  const update = {
    uuid: 'a1',
    name: '/media/not-a-link-field',
    thumbnailLocationV2: '/media/metadata/us-west-2/a1.jpeg',
    clipLocationMapV2: { cam: '/media/metadata/cam/us-west-2/a1/clip.mpd', other: 'https://elsewhere.example/x.mpd' },
    nested: [{ thumbnailLocationV2: '/media/metadata/us-west-2/a2.jpeg' }],
  };
  const event = {
    id: 1,
    position: 1,
    orgUuid: 'org',
    entity: 'POLICY_ALERT',
    entityUuid: 'a1',
    type: 'CREATE' as const,
    deviceUuid: null,
    timestampMs: 5,
    update,
  };
  const body = JSON.parse(new PreparedChange(event, 'https://media.example:8443').body);
  assert.deepEqual(body.update, {
    uuid: 'a1',
    name: '/media/not-a-link-field',
    thumbnailLocationV2: 'https://media.example:8443/media/metadata/us-west-2/a1.jpeg',
    clipLocationMapV2: { cam: 'https://media.example:8443/media/metadata/cam/us-west-2/a1/clip.mpd', other: 'https://elsewhere.example/x.mpd' },
    nested: [{ thumbnailLocationV2: 'https://media.example:8443/media/metadata/us-west-2/a2.jpeg' }],
  });
  assert.equal(update.thumbnailLocationV2, '/media/metadata/us-west-2/a1.jpeg', 'the stored record is not changed');
});
