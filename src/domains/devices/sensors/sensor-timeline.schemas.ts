import { Type, type TSchema } from 'typebox';
import { Field, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';
import { DurationSec, FootageSeekPoint, SensorSeekPoint, StartSec } from '../../timeline/seekpoints.schemas.js';

/** Request and response schemas of the sensors' timeline reads (the catalogue's shapes). */

const span = { startTimeSec: StartSec(), durationSec: DurationSec() };
// The record a read is of: its handler finds it in the organization (of a sensor's class, a camera by facet id too).
const Named = (field: string, schema: TSchema) => Type.Object({ [field]: Type.Optional(Nullable(NotRef('subject', schema))), ...span });

export const GetFootageSensorSeekpointsForCameraRequest = Named('cameraUuid', Type.String({ maxLength: 64, description: 'the camera: its uuid or facet id' }));
export const GetFootageSensorSeekpointsForLocationRequest = Named('locationUuid', Ruuid());
export const GetFootageSensorSeekpointsForSensorRequest = Named('sensorUuid', Ruuid());

export const SensorSeekpointsResponse = ResponseOf({ seekPoints: Field(Type.Array(SensorSeekPoint)) });
export const GetFootageSensorSeekpointsForSensorResponse = ResponseOf({
  seekPoints: Field(Type.Array(SensorSeekPoint)),
  footageSeekPoints: Field(Type.Array(FootageSeekPoint)),
});
