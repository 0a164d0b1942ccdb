/**
 * The entities the devices domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { CameraDetails } from './cameras/camera-details.service.js';
import type { FootageBoxesChange } from './cameras/footage-boxes.service.js';
import type { CloudArchivingRecord } from './cloud-archiving/service.js';
import type { DeviceStateRecord } from './device-reads/device-events.service.js';
import type { ElevatorLandingLabels } from './elevators/service.js';
import type { RawHttpStreamRecord } from './live-shares/raw-http-streams.schemas.js';
import type { SharedLiveVideoStreamRecord, SharedVideoWallRecord } from './live-shares/schemas.js';
import type { LocationView } from './locations/service.js';
import type { AlertMonitoringPinRecord } from './monitoring/monitoring-pins.service.js';
import type { LocationMonitoringChange } from './monitoring/service.js';
import type { DeviceRecord, DiscoveryRecord, LocationRecord } from './service.js';
import type { VideoWallRecord } from './video-walls/service.js';
import type { ThirdPartyCameraPasswordRecord } from './relays/third-party.service.js';
import type { TvConfigRecord } from './video-walls/tv-configs.service.js';
import type { AudioUploadRecord } from './audio-playback/service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    AUDIO_GATEWAY: DeviceRecord; // an audio gateway added
    BUTTON: DeviceRecord; // a button added
    AUDIO_STATE: DeviceStateRecord; // an audio gateway's minimal state or config
    BADGE_READER: DeviceRecord; // a badge reader added
    BLE_TRACKER: DeviceRecord; // a proximity tag added
    CAMERA: DeviceRecord | CameraDetails; // a camera added, or its details updated
    CAMERA_STATE: DeviceStateRecord; // a camera's minimal state (connection, reboot)
    CAMERA_USER_CONFIG: DeviceStateRecord; // a camera's config or AI thresholds
    CLIMATE_STATE: DeviceStateRecord; // a climate sensor's or environmental gateway's minimal state
    COMPONENT_SEEKPOINT: DeviceStateRecord; // a doorbell camera's component event
    DEVICE: DeviceStateRecord | DeviceRecord; // a device's features, or its connection
    DOORBELL_CAMERA: DeviceRecord; // a doorbell camera added
    DOOR_SENSOR: DeviceRecord; // a door sensor added
    DOOR_STATE: DeviceStateRecord; // a door sensor's minimal state
    ENVIRONMENTAL_GATEWAY: DeviceRecord; // an environmental gateway added
    KEYPAD: DeviceRecord | DeviceStateRecord; // a keypad added, or its config
    OCCUPANCY_SENSOR: DeviceRecord; // an occupancy sensor added
    OCCUPANCY_STATE: DeviceStateRecord; // an occupancy sensor's minimal state
    PROXIMITY_STATE: DeviceStateRecord; // a proximity tag's minimal state
    DOOR_CONTROLLER: DeviceRecord; // a door controller added
    ELEVATOR_LANDING: DeviceRecord | ElevatorLandingLabels; // a landing added, or its labels
    ENVIRONMENTAL_SENSOR: DeviceRecord; // an environmental sensor added
    FOOTAGE_BOUNDING_BOX: FootageBoxesChange; // boxes drawn on a camera's footage
    LOCATION: LocationRecord | LocationView | LocationMonitoringChange; // a location, or its alarm monitoring
    RELAY: DeviceRecord; // a relay added
    NVR: DeviceRecord; // a network video recorder added, or its details or third-party cameras changed
    THIRD_PARTY_CAMERA_DISCOVERY: DiscoveryRecord; // a discovered third-party camera
    THIRD_PARTY_CAMERA_PASSWORD: ThirdPartyCameraPasswordRecord; // a saved third-party camera password (never the password)
    VIDEO_WALL: VideoWallRecord; // a video wall
    AUDIO_UPLOAD: AudioUploadRecord; // an audio clip the audio gateways play
    TVOS_CONFIG: TvConfigRecord; // a TV app's config: the video walls it may show
    SHARED_LIVE_VIDEO_STREAM: SharedLiveVideoStreamRecord; // a key-less link to a camera's live video
    SHARED_VIDEO_WALL: SharedVideoWallRecord; // a key-less link to a video wall's live video
    RAW_HTTP_STREAM: RawHttpStreamRecord; // a raw HTTP stream of a camera (the entity id is its path; its secret masked)
    ALERT_MONITORING_PIN: AlertMonitoringPinRecord; // a custom alert monitoring pin of a location (never its value)
    CLOUD_ARCHIVING_CONFIG: CloudArchivingRecord; // a cloud archiving config of the organization, a location or a device
  }
}
