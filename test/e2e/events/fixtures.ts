import assert from 'node:assert/strict';
import { systemActor } from '../../../src/deps.js';
import type { PolicyAlertRecord } from '../../../src/domains/events/alerts/schemas.js';
import { createPolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { createSavedClip } from '../../../src/domains/events/clips/service.js';
import { write } from '../../../src/bus/write.js';
import type { Activity } from '../../../src/schemas/activities.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
export { changesDuring } from '../../helpers/changes.js';

/** A site for the events tests: two cameras and an air sensor with thresholds, in New York. */
export const EVENTS_SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  sensors: [
    { name: 'Air', kind: 'environmental', location: 'HQ', thresholds: { co2Ppm: 1500, tempC: 30, pm25: 35.5, humidityPermyriad: 6000 } },
    { name: 'Button', kind: 'button', location: 'HQ' },
  ],
};

export interface EventsSite {
  org: TestOrg;
  lobby: string;
  dock: string;
  air: string;
  button: string;
}

/** A new organization with the events site seeded through the control API. */
export async function seedEventsSite(server: TestServer, name = 'Events Org'): Promise<EventsSite> {
  const org = await server.createOrg(name);
  const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, EVENTS_SITE);
  assert.equal(seeded.status, 200, seeded.text);
  return { org, lobby: seeded.json.cameras.Lobby, dock: seeded.json.cameras.Dock, air: seeded.json.sensors.Air, button: seeded.json.sensors.Button };
}

/** Raises a simulator event (`gatehouse simulate <event>`) through the control API and answers its JSON. */
export async function simulate<T = any>(server: TestServer, event: string, flags: Record<string, unknown>): Promise<T> {
  const r = await control<T>(server, `/simulate/${event}`, flags);
  assert.equal(r.status, 200, r.text);
  return r.json;
}

/** Raises one alert per timestamp on a device, in one write (fast enough for thousands). */
export async function raiseAlerts(
  server: TestServer,
  orgUuid: string,
  deviceUuid: string,
  timestamps: readonly number[],
  policyAlertTriggers: Activity[] = ['MOTION'],
): Promise<PolicyAlertRecord[]> {
  return write(server.gatehouse.deps, systemActor(orgUuid, 'test.alerts'), async (w) => {
    const created: PolicyAlertRecord[] = [];
    for (const timestampMs of timestamps) created.push(await createPolicyAlert(w, { deviceUuid, policyAlertTriggers, timestampMs }));
    return created;
  });
}

/**
 * Saves an alert as a clip through the API (savePolicyAlertV2, whose answer names no clip, as the platform's)
 * and answers the uuid of the clip saved from it, as a client finds it: in getSavedClips, by sourceAlertUuid.
 */
export async function saveAlertAsClip(
  ok: (path: string, body?: unknown) => Promise<any>,
  alertUuid: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const saved = await ok('/api/event/savePolicyAlertV2', { alertUuid, ...fields });
  assert.equal(saved?.error, false, JSON.stringify(saved));
  const clips: { uuid: string; sourceAlertUuid?: string | null }[] = (await ok('/api/event/getSavedClips', {})).savedClips;
  const mine = clips.filter((c) => c.sourceAlertUuid === alertUuid);
  assert.ok(mine.length > 0, `a clip saved from alert ${alertUuid}`);
  return mine[0].uuid;
}

/** Saves one clip (INITIATING) per timestamp of a camera, in one write; answers their uuids. */
export async function saveClips(server: TestServer, orgUuid: string, cameraUuid: string, timestamps: readonly number[]): Promise<string[]> {
  return write(server.gatehouse.deps, systemActor(orgUuid, 'test.clips'), async (w) => {
    const uuids: string[] = [];
    for (const timestampMs of timestamps) uuids.push((await createSavedClip(w, 'us', { deviceUuid: cameraUuid, timestampMs })).uuid);
    return uuids;
  });
}

/** A small deterministic pseudo-random generator (mulberry32), so a failing case can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
