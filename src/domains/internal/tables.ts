export interface ShipmentsTable {
  uuid: string;
  org_uuid: string;
  /** The sales opportunity's identifier: unique within an organization. */
  crm_opp_id: string;
  email: string;
  /** JSON array of {name, quantity}. */
  items: string;
  tracking_identifier: string | null;
  /** The outcome of the last shipment email (customerShipmentEmailState), null until one is sent. */
  email_state: string | null;
  email_sent_at_ms: number | null;
  email_error: string | null;
  created_at_ms: number;
}

export interface InternalTables {
  shipments: ShipmentsTable;
}
