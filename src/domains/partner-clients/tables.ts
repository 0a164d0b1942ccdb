/**
 * A piece of hardware in a partner's inventory (partner/getListOfAvailableHardware): unregistered until
 * registerCameraToClient gives it to one of the partner's clients, as a device of that client.
 */
export interface PartnerHardwareTable {
  uuid: string;
  partner_org_uuid: string;
  /** Unique across partners: one piece of hardware is in one inventory. */
  serial_number: string;
  mac_address: string | null;
  /** The platform's device type (CAMERA, ...). */
  device_type: string;
  /** The platform's hardware variation (CAMERA_R200, ...). */
  device_model: string;
  /** The Wi-Fi the registration gave it: the network's name, and its key sealed (src/secrets.ts). */
  wifi_ssid: string | null;
  wifi_psk_sealed: string | null;
  /** The client it was registered to, and the device it became there; null while available. */
  client_org_uuid: string | null;
  device_uuid: string | null;
  created_at_ms: number;
  registered_at_ms: number | null;
}

/** A deal a partner registered (registerDeal): its details as given. */
export interface PartnerDealsTable {
  uuid: string;
  partner_org_uuid: string;
  /** JSON: the details map. */
  details: string;
  created_at_ms: number;
}

export interface PartnerClientTables {
  partner_hardware: PartnerHardwareTable;
  partner_deals: PartnerDealsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends PartnerClientTables {}
}
