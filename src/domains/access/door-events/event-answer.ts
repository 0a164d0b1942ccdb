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

/**
 * A door event as answers carry it (the catalogue's ComponentEventType family): the person behind it is its
 * originator (a remote unlock's API key as `tokenUuid`, a badge-in's holder or a user as `userUuid`), never
 * fields beside it, and a lockdown state event reports the location's `state` rather than the door's. The
 * stored record keeps both ids, which the finders by user and by API key search.
 */
export function componentEventAnswer<T extends ComponentEventRecord>(event: T) {
  const lockdown = event.type === 'DoorLocationLockdownStateEvent';
  const { userUuid, apiTokenUuid, originator, newState, ...rest } = event;
  const by: EventOriginator | undefined = apiTokenUuid
    ? { type: 'API_TOKEN', tokenUuid: apiTokenUuid }
    : userUuid
      ? { type: originator?.type ?? 'USER', userUuid }
      : originator;
  return {
    ...rest,
    // Gatehouse keeps a door's events as its component's (findComponentEventsByComponent finds them by it); the
    // platform's MCP server reads componentUuid.
    componentUuid: event.componentCompositeUuid,
    // The catalogue's lockdown state event has the location's state, not the door's.
    ...(lockdown ? { activeDoorLockdownState: undefined, state: locationLockdownState(newState) } : newState === undefined ? {} : { newState }),
    ...(by ? { originator: by } : {}),
  };
}

export const componentEventAnswers = <T extends ComponentEventRecord>(events: readonly T[]) => events.map(componentEventAnswer);

/** A video intercom's events as answers carry them: its presses as they are, its door's events as above. */
export const intercomEventAnswers = (events: readonly IntercomEvent[]) =>
  events.map((event) => (event.type === 'DoorbellEvent' ? event : componentEventAnswer(event as ComponentEventRecord)));
