/** What a custom seekpoint marks: a camera's footage or an access-controlled door's timeline. */
export const SEEKPOINT_TARGETS = ['CAMERA', 'DOOR'] as const;
export type SeekpointTarget = (typeof SEEKPOINT_TARGETS)[number];

/**
 * Custom seekpoints: a named, coloured mark a user or integration put on a camera's or a door's timeline
 * (createCustomFootageSeekpoints, createAccessControlledDoorSeekpoints). Read by target or by location, over a span.
 */
export interface CustomSeekpointsTable {
  uuid: string;
  org_uuid: string;
  target_kind: SeekpointTarget;
  /** The camera (device uuid, without facet) or the door. */
  target_uuid: string;
  /** Where the target stood when the mark was made. */
  location_uuid: string | null;
  timestamp_ms: number;
  name: string;
  description: string | null;
  /** FootageSeekPointColorEnum, or null for the player's default. */
  color: string | null;
  /** 0/1: whether the player draws the name over the footage. */
  display_overlay: number | null;
  created_at_ms: number;
}

export interface TimelineTables {
  custom_seekpoints: CustomSeekpointsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends TimelineTables {}
}
