/**
 * The entities the timeline domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { CustomSeekpointRecord } from './custom-seekpoints.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    CUSTOM_SEEKPOINT: CustomSeekpointRecord; // a named mark on a camera's footage or a door's timeline
  }
}
