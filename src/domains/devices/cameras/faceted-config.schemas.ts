import { Type, type TSchema } from 'typebox';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { CAMERA_CONFIG_FIELDS, CameraConfig, Resolution } from './camera-details.schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/**
 * A camera's settings as the faceted view groups them (deviceconfig/getFacetedConfig and updateFacetedConfig):
 * per video facet, per audio facet, and for the device. The settings are the ones camera/getConfig answers (the
 * same state); each keeps its range from CAMERA_CONFIG_FIELDS. Shapes from the reference catalogue.
 */
type ConfigField = keyof typeof CAMERA_CONFIG_FIELDS;

export const AUDIO_SETTINGS = ['audio_record', 'audio_internal_mic_volume', 'audio_internal_speaker_volume'] as const satisfies readonly ConfigField[];
export const DEVICE_SETTINGS = ['led_stealth_mode', 'media_ttl_minutes'] as const satisfies readonly ConfigField[];
/** Read in the video facet but not set through it (as the catalogue's selective update has them). */
const READ_ONLY_VIDEO = ['face_ai_threshold', 'face_match_threshold'] as const satisfies readonly ConfigField[];
const NOT_VIDEO = new Set<string>([...AUDIO_SETTINGS, ...DEVICE_SETTINGS, 'resolution']);
export const VIDEO_SETTINGS = (Object.keys(CAMERA_CONFIG_FIELDS) as ConfigField[]).filter((k) => !NOT_VIDEO.has(k));
const UPDATABLE_VIDEO = VIDEO_SETTINGS.filter((k) => !(READ_ONLY_VIDEO as readonly string[]).includes(k));

const fieldsOf = (keys: readonly ConfigField[]) => Object.fromEntries(keys.map((k) => [k, Field(CAMERA_CONFIG_FIELDS[k] as TSchema)]));

const { properties: cameraConfig } = CameraConfig;

const VideoSettings = Type.Object({
  ...fieldsOf(VIDEO_SETTINGS),
  resolution: Field(Resolution),
  cross_counting: cameraConfig.cross_counting,
  cross_counting_settings: cameraConfig.cross_counting_settings,
});
const AudioSettings = Type.Object(fieldsOf(AUDIO_SETTINGS));
const DeviceSettings = Type.Object(fieldsOf(DEVICE_SETTINGS));

export const FacetedUserConfig = Type.Object({
  deviceUuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  lastModified: Field(Type.Integer()),
  videoFacetSettings: Field(Type.Record(Type.String(), VideoSettings)),
  audioFacetSettings: Field(Type.Record(Type.String(), AudioSettings)),
  deviceSettings: Field(DeviceSettings),
});

/** A facet's name in the maps (`v0`); the uuid is the config's. */
const FacetName = Type.String({ pattern: '^[a-z][0-9]{1,2}$' });
/** The platform's clients send which setters were called; Gatehouse sets every field given (not null). */
const updatedSetMethodMap = Field(Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Null()])));
const strict = { additionalProperties: false };

export const GetFacetedConfigRequest = Type.Object({ deviceUuid: NotRef('handler', Ruuid()) });
export const GetFacetedConfigResponse = ResponseOf({ config: Field(FacetedUserConfig) });
export const UpdateFacetedConfigRequest = Type.Object({
  configUpdate: Type.Object(
    {
      deviceUuid: NotRef('handler', Ruuid()),
      videoFacetSettings: Field(
        Type.Record(FacetName, Type.Object({ ...fieldsOf(UPDATABLE_VIDEO), resolution: Field(Resolution), updatedSetMethodMap }, strict)),
      ),
      audioFacetSettings: Field(Type.Record(FacetName, Type.Object({ ...fieldsOf(AUDIO_SETTINGS), updatedSetMethodMap }, strict))),
      deviceSettings: Field(Type.Object({ ...fieldsOf(DEVICE_SETTINGS), updatedSetMethodMap }, strict)),
    },
    strict,
  ),
});
