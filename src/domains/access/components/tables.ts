/**
 * The hardware components of a device (a door controller's readers, relays, inputs, request-to-exit sensors,
 * door position indicators, buttons): one table for every type; what differs by type lives in `settings`.
 */
export interface HardwareComponentsTable {
  uuid: string;
  org_uuid: string;
  owner_device_uuid: string;
  /** The platform's ComponentEnumType (IntegratedDoorRelay, WiegandDoorReader, ...). */
  type: string;
  name: string;
  /** JSON object: the type's own fields (ports, normal state, reader options) as the API returns them. */
  settings: string;
  /** The state the component last reported (its shadow); null until it reports one. */
  state: string | null;
  state_at_ms: number | null;
  /** A relay driven for a while (a transient state) returns to its steady state at this time. */
  transient_until_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A device's physical port configuration, made on first request (getOrCreateDevicePhysicalPortConfig). */
export interface DevicePortConfigsTable {
  owner_device_uuid: string;
  org_uuid: string;
  created_at_ms: number;
  updated_at_ms: number;
}

declare module '../../../store/schema.js' {
  interface DB {
    hardware_components: HardwareComponentsTable;
    device_port_configs: DevicePortConfigsTable;
  }
}
