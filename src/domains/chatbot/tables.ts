/** A question put to the chatbot and its answer: asked over submitChat, or by an automated prompt's run. */
export interface ChatRecordsTable {
  uuid: string;
  org_uuid: string;
  /** The automated prompt whose run asked it; null for a submitChat. */
  prompt_uuid: string | null;
  context_id: string | null;
  query: string;
  response: string;
  /** ANSWERED, PARTIALLY_ANSWERED or NO_RESPONSE (client-calls.md: the timeline's statuses). */
  status: string;
  /** PRIVATE until shared (shareAutomatedPromptResponse). */
  visibility: string;
  queried_at_ms: number;
  responded_at_ms: number;
}

/** A prompt the chatbot runs on a schedule: first at invoke_at_ms, then every frequency_value frequency_unit. */
export interface AutomatedPromptsTable {
  uuid: string;
  org_uuid: string;
  prompt: string;
  response_template: string | null;
  invoke_at_ms: number;
  frequency_value: number;
  frequency_unit: string;
  permission_group_uuid: string | null;
  /** JSON: the follow-up actions as given (NOTIFY_USERS and its userUuids). */
  follow_up_actions: string;
  /** When the runner next runs it. */
  next_run_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
}

declare module '../../store/schema.js' {
  interface DB {
    chat_records: ChatRecordsTable;
    automated_prompts: AutomatedPromptsTable;
  }
}
