/**
 * The entities the partner-clients domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { PartnerDealRecord, PartnerHardwareRecord } from './hardware.service.js';
import type { PartnerClientSettingsRecord } from './service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    PARTNER_CLIENT_SETTINGS: PartnerClientSettingsRecord; // a partner's customizations of a client organization
    PARTNER_HARDWARE: PartnerHardwareRecord; // hardware in a partner's inventory, added or registered to a client
    PARTNER_DEAL: PartnerDealRecord; // a deal a partner registered
  }
}
