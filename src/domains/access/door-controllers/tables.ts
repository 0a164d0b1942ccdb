/** A rule a door controller runs on its own; `settings` is the rest of the rule as the client sent it (JSON). */
export interface DoorControllerRulesTable {
  uuid: string;
  org_uuid: string;
  device_uuid: string;
  name: string;
  enabled: number;
  rule_type: string;
  settings: string;
  created_at_ms: number;
  updated_at_ms: number;
}

declare module '../../../store/schema.js' {
  interface DB {
    door_controller_rules: DoorControllerRulesTable;
  }
}
