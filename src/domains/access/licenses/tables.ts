/** An organization's licenses: one row each, whatever it licenses (a device, an add-on, a door, a location's alert monitoring). */
export interface LicensesTable {
  uuid: string;
  org_uuid: string;
  product_type: 'DEVICE' | 'ALERT_MONITORING' | 'ACCESS_CONTROL' | 'LICENSE_USAGE';
  /** The tier (STARTER, STANDARD, ENTERPRISE, LEGACY) of a device or alert-monitoring license. */
  license_type: string | null;
  /** The kind of device a device license is for (CAMERA, VIDEO_INTERCOM, ...). */
  license_family: string | null;
  /** The add-on a LICENSE_USAGE license grants (CLOUD_ARCHIVING, VEHICLE, ...). */
  add_on: string | null;
  device_uuid: string | null;
  door_uuid: string | null;
  location_uuid: string | null;
  /** How many devices at its location an alert-monitoring license covers. */
  allowed_device_count: number | null;
  trial: number;
  claim_key_uuid: string | null;
  first_assigned_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface LicenseTables {
  licenses: LicensesTable;
}

declare module '../../../store/schema.js' {
  interface DB extends LicenseTables {}
}
