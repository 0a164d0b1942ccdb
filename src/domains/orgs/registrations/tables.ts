/** A shipment of hardware: its token (kept as a digest) names it, and the organization that claims it owns its units. */
export interface ShipmentsTable {
  uuid: string;
  token_digest: string;
  claimed_org_uuid: string | null;
  claimed_at_ms: number | null;
  created_at_ms: number;
}

/** One unit of hardware of a shipment, and its pending registration (the `pending_*` columns, set from `pending_at_ms`). */
export interface HardwareTable {
  uuid: string;
  shipment_uuid: string;
  serial_number: string;
  mac_address: string | null;
  /** The platform's device type (PLATFORM_DEVICE_TYPES). */
  device_type: string;
  hw_variation: string | null;
  /** The organization that claimed its shipment; null until then. */
  org_uuid: string | null;
  /** The device it registered as; null until it comes online. */
  device_uuid: string | null;
  pending_at_ms: number | null;
  pending_name: string | null;
  pending_location_uuid: string | null;
  pending_policy_uuid: string | null;
  pending_wifi_ssid: string | null;
  /** The Wi-Fi key the unit is handed when it comes online: sealed, never answered. */
  pending_wifi_psk_sealed: string | null;
  manufactured_at_ms: number;
}

export interface RegistrationTables {
  hardware_shipments: ShipmentsTable;
  shipped_hardware: HardwareTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends RegistrationTables {}
}
