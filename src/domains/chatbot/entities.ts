/**
 * The entities the chatbot domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { AutomatedPrompt, ChatRecord } from './schemas.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    AUTOMATED_PROMPT: AutomatedPrompt; // a prompt the chatbot runs on a schedule
    CHAT_RECORD: ChatRecord; // a question put to the chatbot and its answer
  }
}
