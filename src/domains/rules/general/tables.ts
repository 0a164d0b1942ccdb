/** A rule of the general engine: its triggers (JSON), filters and action (JSON, secrets sealed). */
export interface RulesTable {
  uuid: string;
  org_uuid: string;
  name: string | null;
  rule_type: string;
  conjunction: string;
  /** JSON array of the rule's triggers, as the API takes them. */
  triggers: string;
  /** JSON array of schedule uuids: the rule fires only inside one of them (none: always). */
  schedule_uuids: string;
  backoff_secs: number;
  /** JSON of the action object, each password and client secret sealed (rule-secrets.ts). */
  action: string;
  last_fired_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A pause of a rule: it does not fire from `start_ms` for `duration_secs`. */
export interface RulePausesTable {
  uuid: string;
  org_uuid: string;
  rule_uuid: string;
  start_ms: number;
  duration_secs: number;
}

/** A rule's firing (a button rule's or a general rule's): one per rule and source event, with its record (JSON). */
export interface RuleEventRecordsTable {
  uuid: string;
  org_uuid: string;
  rule_uuid: string;
  /** The event the rule fired on (a press, a policy alert, a door event): the firing is claimed once per rule and source. */
  source_uuid: string;
  device_uuid: string | null;
  triggered_at_ms: number;
  record: string;
}

export interface GeneralRuleTables {
  rules: RulesTable;
  rule_pauses: RulePausesTable;
  rule_event_records: RuleEventRecordsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends GeneralRuleTables {}
}
