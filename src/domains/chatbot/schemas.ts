import { Type, type Static } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { NotRef, RefUuid } from '../../schemas/record-kinds.js';

/**
 * The chatbot (chatbot/*: the platform's newer public spec, which its CLI and MCP call). Gatehouse answers with a
 * small deterministic answerer over the organization's own records (answerer.ts), never an outside service.
 */

/** How a chat ended (the statuses its clients compare against, client-calls.md section 4). */
export const CHAT_STATUSES = ['ANSWERED', 'PARTIALLY_ANSWERED', 'NO_RESPONSE'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
export const VISIBILITIES = ['PRIVATE', 'ORG', 'PUBLIC'] as const;
/** MONTHS runs every 30 days. */
export const FREQUENCY_UNITS = ['MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS'] as const;
export type FrequencyUnit = (typeof FREQUENCY_UNITS)[number];

const TimelineStep = Type.Object({
  status: Field(Type.String()),
  description: Field(Type.String()),
  timestampMs: Field(Type.Integer()),
});

export const ChatRecord = Type.Object({
  uuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  automatedPromptUuid: Field(Type.String()),
  contextId: Field(Type.String()),
  query: Field(Type.String()),
  response: Field(Type.String()),
  responseType: Field(Type.String({ description: 'TEXT: Gatehouse answers in text' })),
  status: Field(StringEnum(CHAT_STATUSES)),
  privacy: Field(Type.Object({ visibility: Field(StringEnum(VISIBILITIES)) })),
  queriedAtMs: Field(Type.Integer()),
  respondedAtMs: Field(Type.Integer()),
  timeline: Field(Type.Array(TimelineStep)),
});
export type ChatRecord = Static<typeof ChatRecord>;

const Frequency = Type.Object({
  frequency: Type.Integer({ minimum: 1, maximum: 1000 }),
  unit: StringEnum(FREQUENCY_UNITS),
});
const FollowUpAction = Type.Object({
  type: StringEnum(['NOTIFY_USERS']),
  userUuids: Field(Type.Array(RefUuid('user'), { maxItems: 100 })),
});

export const AutomatedPrompt = Type.Object({
  uuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  prompt: Field(Type.String()),
  responseTemplate: Field(Type.String()),
  invokeAtMs: Field(Type.Integer()),
  frequency: Field(Frequency),
  permissionGroupUuid: Field(Type.String()),
  followUpActions: Field(Type.Array(FollowUpAction)),
  scheduleUuid: Field(Type.String({ description: 'the runner keeps the schedule itself: always empty' })),
  nextRunAtMs: Field(Type.Integer()),
  createdAtMs: Field(Type.Integer()),
  updatedAtMs: Field(Type.Integer()),
});
export type AutomatedPrompt = Static<typeof AutomatedPrompt>;

const PromptFields = {
  prompt: Type.String({ minLength: 1, maxLength: 4000 }),
  responseTemplate: Field(Type.String({ maxLength: 4000 })),
  invokeAtMs: Field(Type.Integer({ minimum: 0, description: 'first run (default now)' })),
  frequency: Field(Frequency),
  permissionGroupUuid: Field(RefUuid('permissionGroup')),
  followUpActions: Field(Type.Array(FollowUpAction, { maxItems: 10 })),
};
export const PromptSettingsInput = Type.Object(PromptFields);
export type PromptSettingsInput = Static<typeof PromptSettingsInput>;
const { prompt, ...rest } = PromptFields;
export const PromptUpdateInput = Type.Object({ uuid: NotRef('subject', Ruuid()), prompt: Field(prompt), ...rest });
export type PromptUpdateInput = Static<typeof PromptUpdateInput>;

const Page = {
  lastEvaluatedKey: Field(Type.String({ maxLength: 64, description: 'the previous page ended here' })),
  maxPageSize: Field(Type.Integer({ minimum: 1, maximum: 100, description: 'default 20' })),
};

export const SubmitChatRequest = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 20000 }),
  contextId: Field(NotRef('external', Type.String({ maxLength: 200, description: 'the conversation it belongs to' }))),
});
export const SubmitChatResponse = ResponseOf({ chatRecordUuid: Field(Type.String()) });
export const GetChatRecordRequest = Type.Object({ recordUuid: NotRef('handler', Ruuid()) });
export const ChatResponse = ResponseOf({ chat: Field(ChatRecord) });

export const CreateAutomatedPromptRequest = Type.Object({ settings: PromptSettingsInput });
export const UpdateAutomatedPromptRequest = Type.Object({ selectiveUpdate: PromptUpdateInput });
export const PromptRequest = Type.Object({ promptUuid: NotRef('handler', Ruuid()) });
export const AutomatedPromptResponse = ResponseOf({ settings: Field(AutomatedPrompt) });
export const AutomatedPromptsRequest = Type.Object(Page);
export const AutomatedPromptsResponse = ResponseOf({ settingsList: Field(Type.Array(AutomatedPrompt)), lastEvaluatedKey: Field(Type.String()) });
export const ChatHistoryRequest = Type.Object({ promptUuid: NotRef('handler', Ruuid()), ...Page });
export const ChatHistoryResponse = ResponseOf({ chatHistory: Field(Type.Array(ChatRecord)), lastEvaluatedKey: Field(Type.String()) });
export const ShareResponseRequest = Type.Object({ chatUuid: NotRef('handler', Ruuid()), privacy: Type.Object({ visibility: StringEnum(VISIBILITIES) }) });
export const VerifyJobScheduledResponse = ResponseOf({ scheduleExpression: Field(Type.String()), scheduleTimezone: Field(Type.String()) });
