import { Type } from 'typebox';
import { Field, Nullable, ResponseOf } from '../../../schemas/common.js';
import { ACTIVITIES, FOOTAGE_COLORS } from '../../../schemas/activities.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Permyriad = (edge: string) => Type.Integer({ description: `${edge} edge, in permyriad of the image (0..10000)` });

const Point = Type.Object({ x: Field(Type.Integer()), y: Field(Type.Integer()) });

export { FOOTAGE_COLORS };

/** The reference's FootageBoundingBoxType: a, ts, l, t, r, b required; every optional field is kept as sent. */
export const FootageBoundingBox = Type.Object({
  a: Type.Enum(ACTIVITIES, { description: 'the activity seen' }),
  ts: Type.Integer({ description: 'epoch milliseconds of the frame' }),
  l: Permyriad('left'),
  t: Permyriad('top'),
  r: Permyriad('right'),
  b: Permyriad('bottom'),
  c: Field(Type.Number({ description: 'confidence' })),
  al: Field(Type.Boolean({ description: 'alerted on' })),
  m: Field(Type.Boolean({ description: 'object in motion' })),
  objectId: Field(Type.Integer()),
  loudness: Field(Type.Integer()),
  fn: Field(Type.String({ maxLength: 500, description: 'face names' })),
  uf: Field(Type.String({ maxLength: 200, description: 'face id of an unidentified face' })),
  lp: Field(Type.String({ maxLength: 50, description: 'license plate' })),
  vn: Field(Type.String({ maxLength: 200, description: 'vehicle name' })),
  cdn: Field(Type.String({ maxLength: 100, description: 'custom activity display name' })),
  cd: Field(Type.String({ maxLength: 100, description: 'custom activity display description' })),
  kp: Field(Type.Record(Type.String({ maxLength: 64 }), Point, { description: 'pose keypoints, by name', maxProperties: 64 })),
  p: Field(Type.String({ maxLength: 200, description: 'pose' })),
  ro: Field(Type.Array(Nullable(Type.String({ maxLength: 200 })), { maxItems: 100, description: 'recognized objects' })),
  croppedImageLocator: Field(Type.String({ maxLength: 2000 })),
  customActivityColor: Field(Type.Enum(FOOTAGE_COLORS)),
  sensorValType: Field(
    Type.Object(
      { sensorBoolean: Field(Type.Boolean()), sensorDouble: Field(Type.Number()), sensorLong: Field(Type.Integer()) },
      { description: 'a sensor value' },
    ),
  ),
  toastOrderIdInfo: Field(
    Type.Object(
      {
        employeeName: Field(Type.String({ maxLength: 200 })),
        guid: Field(Type.String({ maxLength: 200 })),
        locationName: Field(Type.String({ maxLength: 200 })),
        restaurantName: Field(Type.String({ maxLength: 200 })),
      },
      { description: 'a point-of-sale order' },
    ),
  ),
});

const CameraUuid = Type.String({ maxLength: 64, description: 'the camera: its uuid or a facet id (<uuid>.v0)' });
/** The camera a request acts on: its handler finds it in the organization. */
const SubjectCamera = NotRef('subject', CameraUuid);

export const MAX_BOXES_PER_CREATE = 1000;

export const CreateFootageBoundingBoxesRequest = Type.Object({
  cameraUuid: SubjectCamera,
  footageBoundingBoxes: Type.Array(FootageBoundingBox, { minItems: 1, maxItems: MAX_BOXES_PER_CREATE }),
});
export const CreateFootageBoundingBoxesResponse = ResponseOf({});

export const GetFootageBoundingBoxesRequest = Type.Object({
  cameraUuid: SubjectCamera,
  startTime: Type.Integer({ minimum: 0, description: 'start of the range, epoch seconds' }),
  duration: Type.Integer({ minimum: 1, description: 'length of the range, seconds' }),
});
export const GetFootageBoundingBoxesResponse = ResponseOf({ footageBoundingBoxes: Field(Type.Array(FootageBoundingBox)) });

export const GetFootageBoundingBoxesForMultipleRequest = Type.Object({
  cameraUuids: NotRef('handler', Type.Array(CameraUuid, { minItems: 1, maxItems: 100 })),
  startTimeSec: Type.Integer({ minimum: 0, description: 'start of the range, epoch seconds' }),
  durationSec: Type.Integer({ minimum: 1, maximum: 86_400, description: 'length of the range, seconds' }),
});
export const GetFootageBoundingBoxesForMultipleResponse = ResponseOf({
  footageBoundingBoxMap: Field(
    Type.Record(Type.String(), Type.Object({ deviceMap: Field(Type.Record(Type.String(), FootageBoundingBox)) }), {
      description: 'by instant (epoch ms), then by camera facet id',
    }),
  ),
});
