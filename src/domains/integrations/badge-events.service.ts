import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { facetId, newRuuid } from '../../ids.js';
import { mediaUrlPath } from '../../footage/storage.js';
import { Field } from '../../schemas/common.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import { badgeAccess } from './badge-access.js';
import { REPLAY_WINDOW_MS, verifyBadgePost } from './badge-signature.js';
import { createPolicyAlert } from '../events/alerts/service.js';
import { createSavedClip } from '../events/clips/service.js';
import { keepCameras } from './org-records.js';
import type { DoorInfo } from './schemas.js';
import { findIntegrationByWebhook, openSecret, type Integration, type IntegrationDeps } from './settings.js';
import * as store from './store.js';
import type { BadgeEventsTable } from './tables.js';

const Person = Type.Object({ name: Field(Type.String({ maxLength: 200 })), personUuid: Field(Type.String({ maxLength: 100 })) });

/** What the badge system posts about a badge seen at a door. */
export const BadgeWebhookEvent = Type.Object({
  eventId: Field(Type.String({ maxLength: 200, description: "the badge system's id of the event" })),
  eventType: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. ACCESS_GRANTED, ACCESS_DENIED' }),
  doorId: Type.String({ minLength: 1, maxLength: 200, description: 'the door: a key of doorInfoMap' }),
  timestampMs: Field(Type.Integer({ minimum: 0 })),
  badgeHolder: Field(Person),
  /** The face the door's camera matched at the time of the event, when one was seen (null personUuid: unknown). */
  observedFace: Field(Person),
  badgeStatus: Field(Type.String({ maxLength: 50, description: 'e.g. Active, Inactive, Lost: a badge that is not Active makes the event an anomaly' })),
  badgeType: Field(Type.String({ maxLength: 50 })),
  areaEntering: Field(Type.String({ maxLength: 200 })),
  areaExiting: Field(Type.String({ maxLength: 200 })),
  entryMade: Field(Type.Boolean({ description: 'whether the holder went through; default: unless access was refused' })),
});
export type BadgeWebhookEvent = Static<typeof BadgeWebhookEvent>;
const validEvent = new Ajv({ allErrors: false }).compile<BadgeWebhookEvent>(BadgeWebhookEvent);

export const BADGE_EVENT_ENTITY = 'BADGE_EVENT';
/** A SEEK_POINT change: a labelled moment of a camera's footage, from a badge event. */
export interface SeekPointRecord {
  uuid: string;
  orgUuid: string;
  cameraUuid: string;
  timestampMs: number;
  label: string;
  sourceUuid: string;
}
export const SEEK_POINT_ENTITY = 'SEEK_POINT';

export interface BadgeEventRecord {
  uuid: string;
  orgUuid: string;
  eventId: string | null;
  eventType: string;
  doorId: string;
  doorName: string | null;
  locationUuid: string | null;
  cameraUuids: string[];
  badgeHolderName: string | null;
  badgeHolderPersonUuid: string | null;
  faceMismatch: boolean;
  timestampMs: number;
  receivedAtMs: number;
  badgeStatus: string | null;
  badgeType: string | null;
  areaEntering: string | null;
  areaExiting: string | null;
  entryMade: boolean;
  anomaly: boolean;
  activity: string;
}

function toBadgeEventRecord(row: BadgeEventsTable): BadgeEventRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    eventId: row.external_id,
    eventType: row.event_type,
    doorId: row.door_key,
    doorName: row.door_name,
    locationUuid: row.location_uuid,
    cameraUuids: fromJson<string[]>(row.camera_uuids) ?? [],
    badgeHolderName: row.holder_name,
    badgeHolderPersonUuid: row.holder_person_uuid,
    faceMismatch: fromDbBool(row.face_mismatch) ?? false,
    timestampMs: row.timestamp_ms,
    receivedAtMs: row.received_at_ms,
    badgeStatus: row.badge_status,
    badgeType: row.badge_type,
    areaEntering: row.area_entering,
    areaExiting: row.area_exiting,
    entryMade: row.entry_made === 1,
    anomaly: row.anomaly === 1,
    activity: row.activity,
  };
}

/** Whether the face seen at the door is not the badge holder's: compared by person, else by name; an unknown face never matches. */
export function faceMismatch(holder: BadgeWebhookEvent['badgeHolder'], face: BadgeWebhookEvent['observedFace']): boolean {
  if (!face) return false;
  if (face.personUuid && holder?.personUuid) return face.personUuid !== holder.personUuid;
  if (face.name && holder?.name) return face.name.trim().toLowerCase() !== holder.name.trim().toLowerCase();
  return true;
}

/** A badge event with what it caused: clips saved and unauthorized-face alerts raised on the door's cameras. */
export interface ReceivedBadgeEvent extends BadgeEventRecord {
  savedClipUuids: string[];
  policyAlertUuids: string[];
}

const DEFAULT_CLIP_SECONDS = 30;

export interface BadgePost {
  webhookUuid: string;
  timestamp?: string;
  signature?: string;
  rawBody: Buffer;
}

/**
 * Accepts a post of the badge system: finds the integration by its webhook id, verifies the signature and
 * the timestamp, refuses a replay, then records the event against the mapped door and does what the settings
 * ask on each of the door's cameras: a seek point (createSeekPoints), a clip from leadingSeconds before the
 * event (saveClips), a BADGE_FACE_MISMATCH alert when the face seen is not the badge holder's
 * (alertUnauthorizedFaces). Every refusal is logged, without the secret or the body.
 */
export async function receiveBadgePost(deps: IntegrationDeps, post: BadgePost): Promise<ReceivedBadgeEvent> {
  const log = deps.log.child({ component: 'integrations.badge', webhookUuid: post.webhookUuid });
  const refuse = (reason: string) => {
    log.warn({ reason }, 'badge webhook post refused');
    return fail('INVALID_SIGNATURE');
  };
  const found = await findIntegrationByWebhook(deps, post.webhookUuid);
  const integration = found?.kind === 'BADGE' ? found : null;
  const secret = integration ? openSecret(deps, integration, 'webhookSignatureSecret') : null;
  if (!integration || !secret) throw refuse('unknown webhook');
  const verdict = verifyBadgePost(secret, post, post.rawBody, deps.clock.now());
  if (!verdict.ok) throw refuse(verdict.reason);
  if (!integration.enabled) throw fail('NOT_ALLOWED', 'the badge integration is disabled');

  let event: unknown;
  try {
    event = JSON.parse(post.rawBody.toString('utf8'));
  } catch {
    throw fail('INVALID_REQUEST', 'Body is not valid JSON');
  }
  if (!validEvent(event))
    throw fail('INVALID_REQUEST', `Body is not a badge event: ${validEvent.errors?.[0]?.instancePath || '/'} ${validEvent.errors?.[0]?.message ?? ''}`.trim());
  return recordBadgeEvent(deps, integration, event, verdict.digest, refuse);
}

/**
 * Records a verified badge event of an integration (the badge integration's, or a partner's that posts its own
 * shape, mapped to this one: partners/inbound.ts) and does what the settings ask. `digest`, when the post was
 * signed, is remembered so that a replay is refused.
 */
export async function recordBadgeEvent(
  deps: IntegrationDeps,
  integration: Integration,
  event: BadgeWebhookEvent,
  digest: string | null,
  refuse: (reason: string) => Error,
): Promise<ReceivedBadgeEvent> {
  const orgUuid = integration.orgUuid;
  const doors = (integration.settings.doorInfoMap ?? {}) as Record<string, DoorInfo>;
  const door = doors[event.doorId];
  if (!door) throw fail('NOT_FOUND', `Door ${event.doorId}`);
  const cameraUuids = await keepCameras(deps, orgUuid, door.assignedCameraList ?? [], []);
  const mismatch = faceMismatch(event.badgeHolder, event.observedFace);
  const access = badgeAccess({
    eventType: event.eventType,
    badgeStatus: event.badgeStatus ?? null,
    entryMade: event.entryMade ?? null,
    faceMismatch: mismatch,
  });

  return write(deps, systemActor(orgUuid, 'integrations.badge.event'), async (w) => {
    if (digest !== null && !(await store.rememberSignature(w.tx, digest, orgUuid, w.nowMs))) throw refuse('replayed signature');
    await store.forgetSignaturesBefore(w.tx, w.nowMs - 2 * REPLAY_WINDOW_MS);
    const row: BadgeEventsTable = {
      uuid: newRuuid(),
      org_uuid: orgUuid,
      external_id: event.eventId ?? null,
      event_type: event.eventType,
      door_key: event.doorId,
      door_name: door.doorName ?? null,
      location_uuid: door.locationUuid ?? null,
      camera_uuids: toJson(cameraUuids)!,
      holder_name: event.badgeHolder?.name ?? null,
      holder_person_uuid: event.badgeHolder?.personUuid ?? null,
      face_mismatch: toDbBool(mismatch)!,
      timestamp_ms: event.timestampMs ?? w.nowMs,
      received_at_ms: w.nowMs,
      badge_status: event.badgeStatus ?? null,
      badge_type: event.badgeType ?? null,
      area_entering: event.areaEntering ?? null,
      area_exiting: event.areaExiting ?? null,
      entry_made: toDbBool(access.entryMade)!,
      anomaly: toDbBool(access.anomaly)!,
      activity: access.activity,
    };
    await store.insertBadgeEvent(w.tx, row);
    // The access-event search's index: one row per camera that saw it (or one without a camera).
    await store.insertBadgeEventCameras(
      w.tx,
      (cameraUuids.length > 0 ? cameraUuids : [null]).map((camera) => ({
        uuid: newRuuid(),
        org_uuid: orgUuid,
        event_uuid: row.uuid,
        camera_uuid: camera,
        location_uuid: row.location_uuid,
        timestamp_ms: row.timestamp_ms,
      })),
    );
    const record = toBadgeEventRecord(row);
    w.change({ entity: BADGE_EVENT_ENTITY, entityUuid: row.uuid, type: 'CREATE', update: record });
    if (integration.settings.createSeekPoints) {
      const points = cameraUuids.map((camera) => ({
        uuid: newRuuid(),
        org_uuid: orgUuid,
        camera_uuid: camera,
        timestamp_ms: row.timestamp_ms,
        label: `${event.eventType} at ${door.doorName ?? event.doorId}${event.badgeHolder?.name ? ` (${event.badgeHolder.name})` : ''}`,
        source_uuid: row.uuid,
        created_at_ms: w.nowMs,
      }));
      await store.insertSeekPoints(w.tx, points);
      for (const p of points) {
        w.change({
          entity: SEEK_POINT_ENTITY,
          entityUuid: p.uuid,
          deviceUuid: p.camera_uuid,
          type: 'CREATE',
          update: { uuid: p.uuid, orgUuid, cameraUuid: p.camera_uuid, timestampMs: p.timestamp_ms, label: p.label, sourceUuid: p.source_uuid },
        });
      }
    }
    const savedClipUuids: string[] = [];
    const policyAlertUuids: string[] = [];
    for (const camera of cameraUuids) {
      const clip = integration.settings.saveClips
        ? await createSavedClip(w, deps.config.region, {
            deviceUuid: camera,
            timestampMs: row.timestamp_ms - (door.leadingSeconds ?? 0) * 1000,
            durationSec: door.clipDuration ?? DEFAULT_CLIP_SECONDS,
            title: `${event.eventType} at ${door.doorName ?? event.doorId}`,
          })
        : null;
      if (clip) savedClipUuids.push(clip.uuid);
      if (!integration.settings.alertUnauthorizedFaces || !mismatch) continue;
      const alert = await createPolicyAlert(w, {
        deviceUuid: camera,
        policyAlertTriggers: ['BADGE_FACE_MISMATCH'],
        timestampMs: row.timestamp_ms,
        textDescription: `The face at ${door.doorName ?? event.doorId} is not badge holder ${event.badgeHolder?.name ?? 'unknown'}`,
        alertingEventFaces: [{ faceName: event.observedFace?.name ?? null, personUuid: event.observedFace?.personUuid ?? null }],
        ...(clip ? { clipLocationMapV2: { [facetId(camera)]: mediaUrlPath(clip.uuid, 'video') } } : {}),
      });
      policyAlertUuids.push(alert.uuid);
    }
    return { ...record, savedClipUuids, policyAlertUuids };
  });
}

export async function findBadgeEvent(source: ReadSource, orgUuid: string, uuid: string): Promise<BadgeEventRecord | null> {
  const row = await store.findBadgeEvent(dbOf(source), orgUuid, uuid);
  return row ? toBadgeEventRecord(row) : null;
}

/** The seek points a record (a badge event) left on camera timelines. */
export async function listSeekPointsOf(source: ReadSource, orgUuid: string, sourceUuid: string) {
  return (await store.listSeekPointsOfSource(dbOf(source), orgUuid, sourceUuid)).map((p) => ({
    uuid: p.uuid,
    cameraUuid: p.camera_uuid,
    timestampMs: p.timestamp_ms,
    label: p.label,
  }));
}
