import { Type } from 'typebox';
import { Field, ResponseOf } from '../../schemas/common.js';
import { ACTIVITIES } from '../../schemas/activities.js';

const Permyriad = (edge: string) => Type.Integer({ description: `${edge} edge, in permyriad of the image (0..10000)` });

/** The reference's FootageBoundingBoxType: a, ts, l, t, r, b required; the optional fields Gatehouse keeps. */
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
});

const CameraUuid = Type.String({ maxLength: 64, description: 'the camera: its uuid or a facet id (<uuid>.v0)' });

export const MAX_BOXES_PER_CREATE = 1000;

export const CreateFootageBoundingBoxesRequest = Type.Object({
  cameraUuid: CameraUuid,
  footageBoundingBoxes: Type.Array(FootageBoundingBox, { minItems: 1, maxItems: MAX_BOXES_PER_CREATE }),
});
export const CreateFootageBoundingBoxesResponse = ResponseOf({});

export const GetFootageBoundingBoxesRequest = Type.Object({
  cameraUuid: CameraUuid,
  startTime: Type.Integer({ minimum: 0, description: 'start of the range, epoch seconds' }),
  duration: Type.Integer({ minimum: 1, description: 'length of the range, seconds' }),
});
export const GetFootageBoundingBoxesResponse = ResponseOf({ footageBoundingBoxes: Field(Type.Array(FootageBoundingBox)) });
