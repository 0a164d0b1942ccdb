import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { readResult } from '../../helpers/server.js';
import { simulate } from '../events/fixtures.js';
import { seedFaceSite, type FaceSite } from '../faces/fixtures.js';
import { makeJpeg } from '../faces/images.js';

/**
 * The platform's older face API, as its Python and Java examples call it (client-calls.md): face labels by name,
 * recent sightings (by interval and by name) with string names and thumbnail keys, uploaded faces, and the
 * multipart upload answering 201.
 */
forEachDialect('the older face API (/api/face/*, /api/upload/faces)', (dialect) => {
  const server = useTestServer(dialect);
  let site: FaceSite;
  let other: FaceSite;
  const api = apiAs(server, () => site.org.apiKey, '/api/face');
  const T = Date.now() - 60_000;
  before(async () => {
    site = await seedFaceSite(server(), 'Older Faces');
    other = await seedFaceSite(server(), 'Other Older Faces');
    await simulate(server(), 'face', { camera: site.lobby, at: String(T), person: site.ada });
    await simulate(server(), 'face', { camera: site.dock, at: String(T + 1000) });
  });

  it('labels a face by its name, lists labels by name, and removes them; an unknown face answers as unknown', async () => {
    await api.ok('addFaceLabel', { faceIdentifier: 'Ada Lovelace', label: 'staff' });
    await api.ok('addFaceLabel', { faceIdentifier: site.bob, label: 'visitor' });
    assert.deepEqual((await api.ok('getFaceLabelsForOrg')).faceLabels, { 'Ada Lovelace': ['staff'], 'Bob Stone': ['visitor'] });
    await api.ok('removeFaceLabel', { faceIdentifier: 'Bob Stone', label: 'visitor' });
    assert.deepEqual((await api.ok('getFaceLabelsForOrg')).faceLabels, { 'Ada Lovelace': ['staff'] });
    assert.equal(await api.refused('addFaceLabel', { faceIdentifier: 'Nobody Known', label: 'x' }), 'Face not found');
    // Another organization's person is unknown here, and its labels are its own.
    assert.equal(await api.refused('addFaceLabel', { faceIdentifier: other.ada, label: 'x' }), 'Face not found');
    assert.deepEqual((await apiAs(server, other.org.apiKey, '/api/face').ok('getFaceLabelsForOrg')).faceLabels, {});
    assert.equal((await api.call('addFaceLabel', { faceIdentifier: 'Ada Lovelace' })).status, 400);
  });

  it('answers recent sightings with the fields the examples read, names and thumbnail keys as strings', async () => {
    const r = await api.ok('getRecentFaceEventsV2', { filter: { types: [] }, interval: { start: T - 1, end: Date.now() } });
    assert.equal(r.faceEvents.length, 2);
    for (const e of r.faceEvents) {
      assert.equal(typeof e.faceName, 'string');
      assert.equal(typeof e.thumbnailS3Key, 'string');
      assert.equal(typeof e.eventTimestamp, 'number');
      assert.ok(e.deviceUuid.length >= 12);
    }
    assert.deepEqual(
      r.faceEvents.map((e: any) => e.faceName),
      ['', 'Ada Lovelace'],
    );
    const named = await api.ok('getRecentFaceEventsV2', { filter: { types: ['NAMED'] }, interval: { start: T - 1, end: Date.now() } });
    assert.deepEqual(
      named.faceEvents.map((e: any) => e.faceName),
      ['Ada Lovelace'],
    );
    const byName = await api.ok('getRecentFaceEventsForName', { faceName: 'Ada Lovelace' });
    assert.equal(byName.faceEvents.length, 1);
    assert.equal(typeof byName.faceEvents[0].thumbnailS3Key, 'string');
    assert.deepEqual((await apiAs(server, other.org.apiKey, '/api/face').ok('getRecentFaceEventsForName', { faceName: 'Ada Lovelace' })).faceEvents, []);
  });

  it('uploads faces as multipart (part files[]), answering 201, and lists them in getUploadedFaces', async () => {
    const form = new FormData();
    form.append('files[]', new Blob([new Uint8Array(makeJpeg({ width: 16, height: 24 }))], { type: 'image/jpeg' }), 'Grace Hopper.jpg');
    const r = await readResult(await fetch(`${server().rest}/api/upload/faces`, { method: 'POST', headers: { 'x-auth-apikey': site.org.apiKey }, body: form }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.error, false);
    const uploaded = (await api.ok('getUploadedFaces')).uploadedFaces;
    assert.equal(uploaded.length, 1);
    assert.deepEqual([uploaded[0].name, uploaded[0].success, uploaded[0].errorMsg], ['Grace Hopper', true, '']);
    assert.equal(typeof uploaded[0].createdAtMillis, 'number');
    assert.deepEqual((await apiAs(server, other.org.apiKey, '/api/face').ok('getUploadedFaces')).uploadedFaces, []);
    // The person now exists, so a label finds it by name.
    await api.ok('addFaceLabel', { faceIdentifier: 'Grace Hopper', label: 'admiral' });
  });
});
