/**
 * The entities the guests domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { GuestActivityRecord, GuestRecord } from './guests.model.js';
import type { KioskRecord } from './kiosks.service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    GUEST: GuestRecord; // a guest of the organization
    GUEST_ACTIVITY: GuestActivityRecord; // a guest checked in, out, or updated
    KIOSK: KioskRecord; // a guest check-in kiosk
  }
}
