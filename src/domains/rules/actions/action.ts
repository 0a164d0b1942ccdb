import type { Deps } from '../../../deps.js';
import type { Activity } from '../../../schemas/activities.js';
import type { Actor, WriteScope } from '../../../bus/write.js';
import type { StoredRule } from '../rules.service.js';
import type { ActionOutcome, ButtonEvent, RuleAction } from '../schemas.js';

export type EngineDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'log' | 'config'>;

/** The event a rule fired on, as webhooks receive it and the stream shows it. */
export interface RuleEvent {
  /** BUTTON_RULE_FIRED for a button rule's press; RULE_FIRED for a general rule's device activity. */
  type: 'BUTTON_RULE_FIRED' | 'RULE_FIRED';
  firingUuid: string;
  orgUuid: string;
  ruleUuid: string;
  ruleName: string | null;
  sensorUuid: string;
  locationUuid: string | null;
  buttonPress: ButtonEvent['buttonPress'];
  pressUuid: string;
  timestampMs: number;
  /** A general rule's: the activities it fired on, and the door (access-controlled) when the event was a door's. */
  activities?: Activity[];
  componentCompositeUuid?: string | null;
}

/** What every action of a firing sees: the rule (secrets opened), the press and the firing's actor. */
export interface ActionContext {
  deps: EngineDeps;
  /** Writes of the actions are the system's, in the rule's organization, named after the firing. */
  actor: Actor;
  rule: StoredRule;
  action: RuleAction;
  event: RuleEvent;
}

/** An action's outcome without its name: SUCCESS, FAILED (detail says why) or QUEUED (handed to the outbox). */
export type Outcome = Omit<ActionOutcome, 'action'>;

/** One action to run, named as in the rule (`webhookActions[1]`). */
export interface ActionRun {
  action: string;
  run(): Promise<Outcome>;
  /**
   * The same action as writes of the store only (a webhook's enqueue), made inside a write already open: the
   * general rule runner makes it in its firing's transaction instead of a transaction of its own (`run`).
   */
  inWrite?(w: WriteScope): Promise<Outcome>;
}

/** A family of actions (one module each): the runs a firing's rule asks of it. */
export type ActionFamily = (ctx: ActionContext) => ActionRun[];

export const succeeded = (detail: string | null = null): Outcome => ({ status: 'SUCCESS', detail });
export const failed = (detail: string): Outcome => ({ status: 'FAILED', detail });
