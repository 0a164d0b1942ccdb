export type DoorPosition = 'OPEN' | 'CLOSED' | 'AJAR' | 'FORCED_OPEN';
export type LockState = 'LOCKED' | 'UNLOCKED';

export interface DoorsTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string;
  name: string;
  has_lock: number;
  /** The schedule during which the door's access rules apply; null means always. */
  schedule_uuid: string | null;
  /** The DOOR_CONTROLLER device that drives the door. */
  controller_device_uuid: string | null;
  unlock_duration_ms: number;
  position: DoorPosition;
  lock_state: LockState;
  controller_online: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface DoorCamerasTable {
  door_uuid: string;
  camera_uuid: string;
  org_uuid: string;
}

/** Which users may open which doors. */
export interface DoorAccessTable {
  door_uuid: string;
  user_uuid: string;
  org_uuid: string;
}

export interface AccessTables {
  doors: DoorsTable;
  door_cameras: DoorCamerasTable;
  door_access: DoorAccessTable;
}
