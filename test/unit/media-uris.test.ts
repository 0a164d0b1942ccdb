import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { absoluteMediaUris, mediaUriFields, mediaUriTree } from '../../src/edge/media-uris.js';
import { MediaUri, MediaUriMap } from '../../src/schemas/common.js';
import type { JsonSchema } from '../../src/schemas/json-schema.js';

const BASE = 'https://media.example:8443';

describe("an answer's media URIs made absolute in one walk (src/edge/media-uris.ts)", () => {
  const answer = Type.Object({
    alerts: Type.Array(
      Type.Object({
        uuid: Type.String(),
        thumbnail: MediaUri('t'),
        clips: MediaUriMap('c'),
        camera: Type.Object({ name: Type.String(), snapshot: MediaUri('s') }),
        others: Type.Optional(Type.Array(MediaUri('o'))),
      }),
    ),
    byDevice: Type.Record(Type.String(), Type.Object({ still: MediaUri('d') })),
    cursor: Type.Union([Type.String(), Type.Null()]),
  });
  const tree = mediaUriTree(mediaUriFields(answer as unknown as JsonSchema));

  it('makes every path under the base absolute, at any depth, and leaves everything else as it was', () => {
    const given = {
      alerts: [
        {
          uuid: '/not-a-uri-field',
          thumbnail: '/media/a1.jpeg',
          clips: { cam: '/media/cam/a1.mpd', far: 'https://elsewhere.example/x.mpd' },
          camera: { name: '/lobby', snapshot: '/media/cam.jpeg' },
          others: ['/media/o1.jpeg', '//host/protocol-relative'],
        },
        { uuid: 'a2', thumbnail: null, clips: {}, camera: { name: 'Dock', snapshot: '/media/dock.jpeg' } },
      ],
      byDevice: { d1: { still: '/media/d1.jpeg' } },
      cursor: '/page/2',
    };
    const before = structuredClone(given);
    assert.deepEqual(absoluteMediaUris(given, tree, BASE), {
      alerts: [
        {
          uuid: '/not-a-uri-field',
          thumbnail: `${BASE}/media/a1.jpeg`,
          clips: { cam: `${BASE}/media/cam/a1.mpd`, far: 'https://elsewhere.example/x.mpd' },
          camera: { name: '/lobby', snapshot: `${BASE}/media/cam.jpeg` },
          others: [`${BASE}/media/o1.jpeg`, '//host/protocol-relative'],
        },
        { uuid: 'a2', thumbnail: null, clips: {}, camera: { name: 'Dock', snapshot: `${BASE}/media/dock.jpeg` } },
      ],
      byDevice: { d1: { still: `${BASE}/media/d1.jpeg` } },
      cursor: '/page/2',
    });
    assert.deepEqual(given, before, 'the handler’s answer is copied, never changed in place');
  });

  it('answers an object with no URI field present as it is, and a value of another shape unchanged', () => {
    const empty = { cursor: null };
    assert.equal(absoluteMediaUris(empty, tree, BASE), empty);
    assert.deepEqual(absoluteMediaUris({ alerts: 'not a list', byDevice: ['not', 'a map'] }, tree, BASE), {
      alerts: 'not a list',
      byDevice: ['not', 'a map'],
    });
  });

  it('walks a map whose values are objects beside named properties of the same object', () => {
    const mixed = Type.Object({ main: MediaUri('m') }, { additionalProperties: Type.Object({ still: MediaUri('s') }) });
    const mixedTree = mediaUriTree(mediaUriFields(mixed as unknown as JsonSchema));
    assert.deepEqual(absoluteMediaUris({ main: '/media/m.jpeg', extra: { still: '/media/e.jpeg' } }, mixedTree, BASE), {
      main: `${BASE}/media/m.jpeg`,
      extra: { still: `${BASE}/media/e.jpeg` },
    });
  });
});
