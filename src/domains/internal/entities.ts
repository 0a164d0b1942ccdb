/**
 * The entities the internal domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { ShipmentRecord } from './service.js';
import type { RmaRecord } from './logistics.service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    SHIPMENT: ShipmentRecord; // a hardware shipment
    RMA: RmaRecord; // a return of hardware
  }
}
