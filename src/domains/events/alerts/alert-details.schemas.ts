import { ActivityEnum } from '../../../schemas/activities.js';
import { Type, type Static } from 'typebox';
import { Field, ResponseOf, StringEnum } from '../../../schemas/common.js';
import { FOOTAGE_COLORS, FootageBoundingBox } from '../../devices/cameras/footage-boxes.schemas.js';
import { PolicyAlertV2 } from './schemas.js';

const str = () => Field(Type.String());
const bool = () => Field(Type.Boolean());
const int = () => Field(Type.Integer());
const box = FootageBoundingBox.properties;

/** What boxes and seek points share (the catalogue's names for a box's short fields). */
const ClipMarkFields = {
  activity: Field(ActivityEnum),
  alert: bool(),
  customActivityColor: Field(StringEnum(FOOTAGE_COLORS)),
  customActivityDescription: str(),
  customActivityDisplayName: str(),
  faceName: str(),
  inMotion: bool(),
  licensePlate: str(),
  loudness: int(),
  pose: str(),
  relativeSecond: Field(Type.Number({ description: 'seconds from the start of the alert' })),
  sensorValType: box.sensorValType,
  toastOrderIdInfo: box.toastOrderIdInfo,
  unidentifiedFaceId: str(),
  vehicleName: str(),
};

/** The catalogue's ClipBoundingBoxType: a footage box of the alert's camera, relative to the alert. */
export const ClipBoundingBox = Type.Object({
  ...ClipMarkFields,
  left: int(),
  top: int(),
  right: int(),
  bottom: int(),
  confidence: Field(Type.Number()),
  croppedImageLocator: str(),
  keypointsV2: box.kp,
  objectId: int(),
});
export type ClipBoundingBox = Static<typeof ClipBoundingBox>;

/** The catalogue's ClipSeekPointV2Type: an activity at a moment of the alert's clip. */
export const ClipSeekPoint = Type.Object({ ...ClipMarkFields, id: int(), dcao: bool(), tu: str() });
export type ClipSeekPoint = Static<typeof ClipSeekPoint>;

const { alertingEventFaces, alertingEventVehicles } = PolicyAlertV2.properties;

/**
 * The catalogue's PolicyAlertWithDetailsType: the alert, its camera's boxes over the alert (by device too),
 * its seek points, and its faces and vehicles split into recognized and unrecognized.
 */
export const PolicyAlertWithDetails = Type.Object(
  {
    ...PolicyAlertV2.properties,
    boundingBoxes: Field(Type.Array(ClipBoundingBox)),
    boundingBoxesMap: Field(Type.Record(Type.String(), Type.Array(ClipBoundingBox), { description: 'by device uuid' })),
    seekPoints: Field(Type.Array(ClipSeekPoint)),
    seekPointsMap: Field(Type.Record(Type.String(), Type.Array(ClipSeekPoint), { description: 'by device uuid' })),
    componentCompositeSeekPointsMap: Field(Type.Record(Type.String(), Type.Array(ClipSeekPoint))),
    recognizedEventFaces: alertingEventFaces,
    unrecognizedEventFaces: alertingEventFaces,
    recognizedEventVehicles: alertingEventVehicles,
    unrecognizedEventVehicles: alertingEventVehicles,
    thirdPartyDeviceName: str(),
  },
  { description: 'Policy alert with its details' },
);

export const GetPolicyAlertDetailsResponse = ResponseOf({ policyAlert: Field(PolicyAlertWithDetails) });
