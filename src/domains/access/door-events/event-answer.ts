import type { IntercomEvent } from './component-events.service.js';
import type { ComponentEventRecord } from './service.js';

/** A door event's originator as the catalogue's BaseEventOriginator has it: its type, and who by that type. */
export interface EventOriginator {
  type: string;
  userUuid?: string;
  tokenUuid?: string;
}

/** The location lockdown state (LocationLockdownStateEnumType) a door's lockdown state event reports. */
const locationLockdownState = (doorState: string | undefined) => (doorState === 'LOCKED_DOWN' ? ('LOCKED_DOWN' as const) : ('STANDARD_SECURITY' as const));

/** A door event as answers carry it: componentEventAnswer. */
export type ComponentEventAnswer = Omit<ComponentEventRecord, 'userUuid' | 'apiTokenUuid' | 'originator'> & {
  componentUuid: string;
  state?: ReturnType<typeof locationLockdownState>;
  originator?: EventOriginator;
};

/**
 * Makes a door event its answer in place, for a record the caller owns (parsed for the answer): a copy by
 * spread or rest cost 4 µs an event, more than parsing and stringifying it. A field the answer leaves out is set
 * to undefined, which every serializer leaves out too; deleting it would make the object a slow dictionary.
 */
function intoAnswer(event: ComponentEventRecord): ComponentEventAnswer {
  const { userUuid, apiTokenUuid, originator } = event;
  const by: EventOriginator | undefined = apiTokenUuid
    ? { type: 'API_TOKEN', tokenUuid: apiTokenUuid }
    : userUuid
      ? { type: originator?.type ?? 'USER', userUuid }
      : originator;
  const answer = event as ComponentEventRecord & Omit<ComponentEventAnswer, 'originator'> & { originator?: EventOriginator };
  if (userUuid !== undefined) answer.userUuid = undefined;
  if (apiTokenUuid !== undefined) answer.apiTokenUuid = undefined;
  // Gatehouse keeps a door's events as its component's (findComponentEventsByComponent finds them by it); the
  // platform's MCP server reads componentUuid.
  answer.componentUuid = event.componentCompositeUuid;
  if (by !== originator) answer.originator = by;
  if (event.type === 'DoorLocationLockdownStateEvent') {
    // The catalogue's lockdown state event has the location's state, not the door's.
    answer.state = locationLockdownState(event.newState);
    answer.activeDoorLockdownState = undefined;
    answer.newState = undefined;
  }
  return answer;
}

/**
 * A door event as answers carry it (the catalogue's ComponentEventType family): the person behind it is its
 * originator (a remote unlock's API key as `tokenUuid`, a badge-in's holder or a user as `userUuid`), never
 * fields beside it, and a lockdown state event reports the location's `state` rather than the door's. The
 * stored record keeps both ids, which the finders by user and by API key search. The record given is left as it
 * is (it may be announced or kept).
 */
export const componentEventAnswer = (event: ComponentEventRecord): ComponentEventAnswer => intoAnswer({ ...event });

export const componentEventAnswers = (events: readonly ComponentEventRecord[]) => events.map(componentEventAnswer);

/** Stored events (their JSON texts, as door-events/service.ts pages them) as answers. */
export const storedEventAnswers = (stored: readonly string[]) => stored.map((text) => intoAnswer(JSON.parse(text) as ComponentEventRecord));

/**
 * Stored events as the JSON text of their answers, for an answer sent past the response schema's serializer
 * (JsonFields, src/edge/operation.ts): every field of an answer is one of the schema's (ComponentEvent), and
 * V8's JSON.stringify of a page costs a fraction of the generated serializer's.
 */
export const storedEventAnswersJson = (stored: readonly string[]) => JSON.stringify(storedEventAnswers(stored));

/** A video intercom's events as answers carry them: its presses as they are, its door's events as above. */
export const intercomEventAnswers = (events: readonly IntercomEvent[]) =>
  events.map((event) => (event.type === 'DoorbellEvent' ? event : componentEventAnswer(event as ComponentEventRecord)));
