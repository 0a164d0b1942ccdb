/** A button's rule: what press it answers, when, and what it does (`action`, JSON with secrets sealed). */
export interface ButtonRulesTable {
  uuid: string;
  org_uuid: string;
  sensor_uuid: string;
  name: string | null;
  trigger_press: string;
  /** JSON array of schedule uuids (also kept in button_rule_schedules, which is what usage lookups read). */
  schedule_uuids: string;
  backoff_secs: number;
  /** JSON of the action object, each password and client secret sealed (see rules.secrets.ts). */
  action: string;
  /** When the rule last fired: the back-off is claimed against it inside the firing's transaction. */
  last_fired_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** Which schedules a rule filters on, so that a schedule in use is found without reading every rule. */
export interface ButtonRuleSchedulesTable {
  rule_uuid: string;
  schedule_uuid: string;
  org_uuid: string;
}

/** One press of a button, as the device (or the simulator) reported it. */
export interface ButtonPressesTable {
  uuid: string;
  org_uuid: string;
  sensor_uuid: string;
  location_uuid: string | null;
  press: string;
  press_duration_ms: number | null;
  timestamp_ms: number;
  created_at_ms: number;
}

/** A rule that fired on a press, with the outcome of each of its actions (JSON array). */
export interface RuleFiringsTable {
  uuid: string;
  org_uuid: string;
  rule_uuid: string;
  sensor_uuid: string;
  press_uuid: string;
  fired_at_ms: number;
  outcomes: string;
}

/** The per-organization secret that signs webhook deliveries (Standard Webhooks), sealed. */
export interface WebhookSecretsTable {
  org_uuid: string;
  sealed_secret: string;
  created_at_ms: number;
}

/** A relay a rule drove for an override duration: turned back to `restore_state` at `restore_at_ms`, then deleted. */
export interface RelayOverridesTable {
  uuid: string;
  org_uuid: string;
  relay_uuid: string;
  firing_uuid: string;
  restore_state: string;
  restore_at_ms: number;
}

export interface RuleTables {
  button_rules: ButtonRulesTable;
  button_rule_schedules: ButtonRuleSchedulesTable;
  button_presses: ButtonPressesTable;
  rule_firings: RuleFiringsTable;
  webhook_secrets: WebhookSecretsTable;
  relay_overrides: RelayOverridesTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends RuleTables {}
}
