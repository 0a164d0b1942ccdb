import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EnvelopeResponse } from '../../schemas/common.js';
import * as automation from './automation.service.js';
import * as s from './schemas.js';
import * as chats from './service.js';

/**
 * The chatbot's chats and automated prompts (the platform's newer public spec: its CLI asks and reads chats, its
 * MCP keeps automated prompts). Answers come from Gatehouse's deterministic stand-in (answerer.ts).
 */
export function chatbotRoutes(app: ApiApp, deps: Deps): void {
  const common = { tags: ['Chatbot'], platformSource: 'newer' as const };
  operation(
    app,
    {
      ...common,
      path: '/api/chatbot/submitChat',
      operationId: 'submitChat',
      summary: "Asks the chatbot a question; the stand-in answers at once from the organization's records",
      body: s.SubmitChatRequest,
      response: s.SubmitChatResponse,
    },
    async (input, ctx) => ({ chatRecordUuid: await chats.submitChat(deps, ctx, input) }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/chatbot/getChatRecord',
      operationId: 'getChatRecord',
      summary: 'A chat: its question, its answer and how it ended',
      body: s.GetChatRecordRequest,
      response: s.ChatResponse,
    },
    async (input, ctx) => ({ chat: await chats.getChatRecord(deps, ctx, input.recordUuid) }),
  );
  const auto = (name: string) => `/api/chatbot/automation/${name}`;
  operation(
    app,
    {
      ...common,
      path: auto('createAutomatedPrompt'),
      operationId: 'createAutomatedPrompt',
      summary: 'Keeps a prompt the chatbot runs on a schedule (first at invokeAtMs, then at each frequency)',
      body: s.CreateAutomatedPromptRequest,
      response: s.AutomatedPromptResponse,
    },
    async (input, ctx) => ({ settings: await automation.createPrompt(deps, ctx, input.settings) }),
  );
  operation(
    app,
    {
      ...common,
      path: auto('getAutomatedPrompt'),
      operationId: 'getAutomatedPrompt',
      summary: 'An automated prompt',
      body: s.PromptRequest,
      response: s.AutomatedPromptResponse,
    },
    async (input, ctx) => ({ settings: await automation.getPrompt(deps, ctx, input.promptUuid) }),
  );
  operation(
    app,
    {
      ...common,
      path: auto('updateAutomatedPrompt'),
      operationId: 'updateAutomatedPrompt',
      summary: "Sets an automated prompt's fields given; a new first run or frequency moves its next run",
      body: s.UpdateAutomatedPromptRequest,
      response: s.AutomatedPromptResponse,
    },
    async (input, ctx) => ({ settings: await automation.updatePrompt(deps, ctx, input.selectiveUpdate) }),
  );
  operation(
    app,
    {
      ...common,
      path: auto('deleteAutomatedPrompt'),
      operationId: 'deleteAutomatedPrompt',
      summary: 'Deletes an automated prompt and its chat history',
      body: s.PromptRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await automation.deletePrompt(deps, ctx, input.promptUuid), {}),
  );
  operation(
    app,
    {
      ...common,
      path: auto('getAutomatedPromptsForOrg'),
      operationId: 'getAutomatedPromptsForOrg',
      summary: "A page of the organization's automated prompts",
      body: s.AutomatedPromptsRequest,
      response: s.AutomatedPromptsResponse,
    },
    async (input, ctx) => automation.listPrompts(deps, ctx, input),
  );
  operation(
    app,
    {
      ...common,
      path: auto('getAutomatedPromptChatHistory'),
      operationId: 'getAutomatedPromptChatHistory',
      summary: "A page of an automated prompt's runs, newest first",
      body: s.ChatHistoryRequest,
      response: s.ChatHistoryResponse,
    },
    async (input, ctx) => automation.chatHistory(deps, ctx, input),
  );
  operation(
    app,
    {
      ...common,
      path: auto('shareAutomatedPromptResponse'),
      operationId: 'shareAutomatedPromptResponse',
      summary: "Sets who may see an automated prompt's answer",
      body: s.ShareResponseRequest,
      response: s.ChatResponse,
    },
    async (input, ctx) => ({ chat: await chats.shareChat(deps, ctx, input.chatUuid, input.privacy.visibility) }),
  );
  operation(
    app,
    {
      ...common,
      path: auto('verifyJobScheduled'),
      operationId: 'verifyJobScheduled',
      summary: "An automated prompt's schedule, as a rate expression in UTC",
      body: s.PromptRequest,
      response: s.VerifyJobScheduledResponse,
    },
    async (input, ctx) => automation.verifyJobScheduled(deps, ctx, input.promptUuid),
  );
}
