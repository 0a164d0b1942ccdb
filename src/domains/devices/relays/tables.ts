/** An RTSP stream a discovered third-party camera offers: found by ONVIF, or given by a user. */
export interface ThirdPartyRtspEndpointsTable {
  uuid: string;
  org_uuid: string;
  /** The discovery it belongs to (normalised MAC address). */
  mac_address: string;
  rtsp_url: string;
  source: 'USER' | 'ONVIF';
  username: string | null;
  /** Sealed with deps.secrets (identity `rtsp-endpoint:<uuid>`); never answered. */
  password_sealed: string | null;
  /** The platform's UrlStatusEnum: what the relay last found at the URL. */
  last_status: string;
  /** The camera the endpoint is assigned to; null while unassigned. */
  camera_uuid: string | null;
  created_at_ms: number;
}

/** A username and password the organization keeps for its third-party cameras; the password sealed, never answered. */
export interface ThirdPartyCameraPasswordsTable {
  uuid: string;
  org_uuid: string;
  username: string;
  password_sealed: string;
  notes: string | null;
  created_at_ms: number;
}

declare module '../../../store/schema.js' {
  interface DB {
    third_party_rtsp_endpoints: ThirdPartyRtspEndpointsTable;
    third_party_camera_passwords: ThirdPartyCameraPasswordsTable;
  }
}
