import { ActivityEnum } from '../../schemas/activities.js';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Type, type TSchema } from 'typebox';
import { systemActor, type Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { deviceOfFacet } from '../../ids.js';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { findDeviceOfAnyOrg } from '../devices/service.js';
import { DEVICE_KINDS, type DeviceKind } from '../devices/tables.js';
import { PolicyAlertV2Kept } from './alerts/schemas.js';
import { raiseDeviceAlert, takeSensorReadings } from './alerts/service.js';
import { SavedClip } from './clips/schemas.js';
import { findSavedClip, saveClip, uploadClipMedia } from './clips/service.js';
import { READINGS } from './readings.js';
import { CENTRE, recordCrossing } from './reports/service.js';
import { CROSSING_OBJECTS } from './tables.js';
import { FaceEvent } from '../faces/face-events.schemas.js';
import { recordFaceSighting } from '../faces/face-events.service.js';
import { VehicleEvent } from './vehicles/schemas.js';
import { recordPlateRead } from './vehicles/service.js';
import { recordCustomEvent } from './custom-events/service.js';
import { CustomEvent } from './scene-queries/schemas.js';
import { createFootageBoundingBoxes } from '../devices/cameras/footage-boxes.service.js';
import { FootageBoundingBox } from '../devices/cameras/footage-boxes.schemas.js';
import { OBJECT_COLORS } from './object-search/attributes.js';

/**
 * The simulator's events of this domain, under /_gatehouse/simulate: each body is the flags of
 * `gatehouse simulate <event>`, and each goes through the same service a device's report would.
 * Devices are named by UUID; the event is written in the device's organization.
 */
async function deviceActor(deps: Pick<Deps, 'store'>, uuid: string, kinds: readonly DeviceKind[], what: string, event: string) {
  const device = await findDeviceOfAnyOrg(deps, uuid);
  if (!device || !kinds.includes(device.deviceType)) throw fail('NOT_FOUND', what);
  return { device, actor: systemActor(device.orgUuid, `simulate.${event}`) };
}

const AnyDevice: readonly DeviceKind[] = DEVICE_KINDS;
const At = Type.Optional(Type.Integer({ minimum: 0, description: 'epoch ms of the event; default now' }));

const AlertFlags = Type.Object({
  device: Ruuid(),
  trigger: ActivityEnum,
  people: Type.Optional(Type.Integer({ minimum: 0, description: 'numHumans' })),
  at: At,
  durationSec: Type.Optional(Type.Integer({ minimum: 0 })),
  text: Type.Optional(Type.String({ maxLength: 500, description: 'textDescription' })),
});

const readingFlags: Record<string, TSchema> = {};
for (const r of READINGS) readingFlags[r.reading] = Type.Optional(r.integer ? Type.Integer() : Type.Number());
const ReadingFlags = Type.Object({ sensor: Ruuid(), at: At, ...readingFlags }, { additionalProperties: false });

const ClipFlags = Type.Object({
  camera: Ruuid(),
  clip: Type.Optional(Ruuid({ description: 'an existing clip of the camera (from savePolicyAlertV2) to upload the video of' })),
  at: At,
  durationSec: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  title: Type.Optional(Type.String({ maxLength: 500 })),
  bytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 * 1024 * 1024, description: 'size of the synthetic video; default 256 KiB' })),
  noUpload: Type.Optional(Type.Boolean({ description: 'create the clip only (INITIATING)' })),
  transaction: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "the clip's externalTransactionId (an integration's transaction)" })),
});

const CrossingFlags = Type.Object({
  camera: Ruuid(),
  in: Type.Integer({ minimum: 0, maximum: 100_000 }),
  out: Type.Integer({ minimum: 0, maximum: 100_000 }),
  object: StringEnum(CROSSING_OBJECTS),
  at: At,
  x: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'where the camera saw it: share of the image width from the left; default 0.5' })),
  y: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'share of the image height from the top; default 0.5' })),
});

const PlateFlags = Type.Object({
  camera: Ruuid(),
  plate: Type.String({ minLength: 1, maxLength: 24, description: 'the licence plate read' }),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'how sure the camera was of the read; default 1' })),
  at: At,
});

const FaceFlags = Type.Object({
  camera: Ruuid(),
  person: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'the person the face looks like, by uuid or name; absent: an unidentified face' }),
  ),
  confidence: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description: "how much it looks like the person (default 1); below the organization's threshold the face is unidentified",
    }),
  ),
  at: At,
});

const CustomEventFlags = Type.Object({
  camera: Ruuid(),
  prompt: Ruuid({ description: 'the scene-query prompt the camera ran' }),
  value: Type.String({ minLength: 1, maxLength: 2000, description: "the prompt's answer: a number, true or false, or text" }),
  at: At,
});

const SEEN_COLORS = OBJECT_COLORS.filter((c) => c !== 'UNKNOWN');
const ObjectFlags = Type.Object({
  camera: Ruuid(),
  object: Type.Optional(StringEnum(['person', 'car'] as const, 'what the camera saw; default person')),
  color: Type.Optional(StringEnum(SEEN_COLORS, "the object's colour; default one drawn from the camera and instant")),
  attributes: Type.Optional(Type.String({ maxLength: 200, description: 'more words the camera recognized ("sedan", "backpack")' })),
  at: At,
});

/** A number drawn from the camera and instant: the same event always gives the same object. */
function drawn(seed: string, modulo: number, salt: string): number {
  return createHash('sha256').update(`${seed}/${salt}`).digest().readUInt32BE(0) % modulo;
}

/**
 * The box of an object the simulated camera saw: its kind, its colour word and attributes among the recognized
 * objects (`ro`), which the object searches read (docs/client-fidelity.md); its place and track id drawn.
 */
function seenObject(flags: { camera: string; object?: 'person' | 'car'; color?: string; attributes?: string }, ts: number) {
  const seed = `${flags.camera}/${ts}`;
  const color = flags.color ?? SEEN_COLORS[drawn(seed, SEEN_COLORS.length, 'color')]!;
  const [w, h] = flags.object === 'car' ? [2500, 1800] : [900, 3000];
  const l = drawn(seed, 10_000 - w, 'x');
  const t = drawn(seed, 10_000 - h, 'y');
  const words = (flags.attributes ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    a: flags.object === 'car' ? ('MOTION_CAR' as const) : ('MOTION_HUMAN' as const),
    ts,
    l,
    t,
    r: l + w,
    b: t + h,
    c: 0.9,
    m: true,
    objectId: drawn(seed, 1_000_000, 'track'),
    ro: [color.toLowerCase(), flags.object ?? 'person', ...words],
  };
}

const Crossing = Type.Object({
  uuid: Field(Type.String()),
  deviceUuid: Field(Ruuid()),
  crossingObject: Field(Type.String()),
  timestampMs: Field(Type.Integer()),
  ingressCount: Field(Type.Integer()),
  egressCount: Field(Type.Integer()),
  position: Field(Type.Object({ x: Type.Number(), y: Type.Number() })),
});

const ReadingCrossing = Type.Object({ reading: Type.String(), value: Type.Number(), threshold: Type.Number() });

/** A 1x1 PNG: the thumbnail the simulated camera uploads. */
const THUMBNAIL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Deterministic stand-in video bytes for a clip: a SHA-256 chain seeded with its uuid. */
function syntheticVideo(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let offset = 0; offset < size; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

export const eventSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post('/alert', { schema: { ...hidden, body: AlertFlags, response: { 200: ResponseOf({ policyAlert: Field(PolicyAlertV2Kept) }) } } }, async (request) => {
    const flags = request.body;
    const { actor } = await deviceActor(deps, flags.device, AnyDevice, 'Device', 'alert');
    const policyAlert = await raiseDeviceAlert(deps, actor, {
      deviceUuid: flags.device,
      policyAlertTriggers: [flags.trigger],
      numHumans: flags.people,
      timestampMs: flags.at,
      durationSec: flags.durationSec,
      textDescription: flags.text,
    });
    return { error: false, policyAlert };
  });

  app.post(
    '/reading',
    {
      schema: {
        ...hidden,
        body: ReadingFlags,
        response: { 200: ResponseOf({ policyAlert: Field(PolicyAlertV2Kept), crossings: Field(Type.Array(ReadingCrossing)) }) },
      },
    },
    async (request) => {
      const { sensor, at, ...rest } = request.body as { sensor: string; at?: number } & Record<string, number>;
      if (Object.keys(rest).length === 0) throw fail('INVALID_VALUE', `reading: give at least one reading (${READINGS.map((r) => r.reading).join(', ')})`);
      const { actor } = await deviceActor(deps, sensor, ['ENVIRONMENTAL_SENSOR'], 'Environmental sensor', 'reading');
      return { error: false, ...(await takeSensorReadings(deps, actor, { sensorUuid: sensor, readings: rest, timestampMs: at })) };
    },
  );

  app.post('/clip', { schema: { ...hidden, body: ClipFlags, response: { 200: ResponseOf({ savedClip: Field(SavedClip) }) } } }, async (request) => {
    const flags = request.body;
    const { device, actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'clip');
    let clip = flags.clip
      ? await findSavedClip(deps, device.orgUuid, flags.clip)
      : await saveClip(deps, actor, {
          deviceUuid: device.uuid,
          timestampMs: flags.at,
          durationSec: flags.durationSec,
          title: flags.title,
          externalTransactionId: flags.transaction,
        });
    if (!clip || deviceOfFacet(clip.deviceUuid ?? '') !== device.uuid) throw fail('NOT_FOUND', 'Saved clip');
    if (!flags.noUpload) {
      const upload = (part: 'video' | 'thumbnail', contentType: string, bytes: Buffer) =>
        uploadClipMedia(deps, actor, { clipUuid: clip!.uuid, part, contentType, body: Readable.from([bytes]) });
      await upload('thumbnail', 'image/png', THUMBNAIL_PNG);
      clip = await upload('video', 'video/mp4', syntheticVideo(clip.uuid, flags.bytes ?? 256 * 1024));
    }
    return { error: false, savedClip: clip };
  });

  app.post('/crossing', { schema: { ...hidden, body: CrossingFlags, response: { 200: ResponseOf({ crossing: Field(Crossing) }) } } }, async (request) => {
    const flags = request.body;
    const { actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'crossing');
    const crossing = await recordCrossing(deps, actor, {
      cameraUuid: flags.camera,
      object: flags.object,
      ingress: flags.in,
      egress: flags.out,
      timestampMs: flags.at,
      position: { x: flags.x ?? CENTRE.x, y: flags.y ?? CENTRE.y },
    });
    return { error: false, crossing };
  });

  app.post(
    '/plate',
    { schema: { ...hidden, body: PlateFlags, response: { 200: ResponseOf({ vehicleEvent: Field(VehicleEvent), policyAlert: Field(PolicyAlertV2Kept) }) } } },
    async (request) => {
      const flags = request.body;
      const { actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'plate');
      return {
        error: false,
        ...(await recordPlateRead(deps, actor, {
          cameraUuid: flags.camera,
          plate: flags.plate,
          confidence: flags.confidence ?? 1,
          timestampMs: flags.at,
        })),
      };
    },
  );

  app.post('/face', { schema: { ...hidden, body: FaceFlags, response: { 200: ResponseOf({ faceEvent: Field(FaceEvent) }) } } }, async (request) => {
    const flags = request.body;
    const { actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'face');
    return {
      error: false,
      faceEvent: await recordFaceSighting(deps, actor, { cameraUuid: flags.camera, person: flags.person, confidence: flags.confidence, timestampMs: flags.at }),
    };
  });

  app.post(
    '/object',
    { schema: { ...hidden, body: ObjectFlags, response: { 200: ResponseOf({ footageBoundingBox: Field(FootageBoundingBox) }) } } },
    async (request) => {
      const flags = request.body;
      const { actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'object');
      const box = seenObject(flags, flags.at ?? deps.clock.now());
      await createFootageBoundingBoxes(deps, actor, { cameraUuid: flags.camera, footageBoundingBoxes: [box] });
      return { error: false, footageBoundingBox: box };
    },
  );

  app.post(
    '/custom-event',
    {
      schema: {
        ...hidden,
        body: CustomEventFlags,
        response: { 200: ResponseOf({ customEvent: Field(CustomEvent), policyAlert: Field(PolicyAlertV2Kept) }) },
      },
    },
    async (request) => {
      const flags = request.body;
      const { actor } = await deviceActor(deps, flags.camera, ['CAMERA'], 'Camera', 'custom-event');
      return {
        error: false,
        ...(await recordCustomEvent(deps, actor, { cameraUuid: flags.camera, promptUuid: flags.prompt, value: flags.value, timestampMs: flags.at })),
      };
    },
  );
};
