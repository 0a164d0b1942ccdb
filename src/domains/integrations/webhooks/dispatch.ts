import type { ChangeEvent } from '../../../store/change-event.js';
import { systemActor } from '../../../deps.js';
import { addDelivery, announceDeliveries, hasDelivery } from '../../../outbox/service.js';
import { changesBetween, lastPositions, positionAtOrBeforeId } from '../../changes/service.js';
import { write } from '../../../bus/write.js';
import { findIntegration, INTEGRATION_ENTITY, type Integration, type IntegrationDeps } from '../settings.js';
import { ENDPOINT_ENTITY, listOrgEndpoints, type Endpoint, type ListenerFilter, type SubscriptionFilter } from './endpoints.service.js';
import { isWebhookEntity, webhookEventOf, type AlertPayload, type SubscriptionEvent } from './events.js';
import * as store from './store.js';

/** The outbox kinds of the organization's webhooks (the delivery log's `kind`). */
export const WEBHOOK_KINDS = {
  CLASSIC: 'ORG_WEBHOOK',
  ACTIVITY: 'WEBHOOK_V2_ACTIVITY',
  DIAGNOSTIC: 'WEBHOOK_V2_DIAGNOSTIC',
  SUBSCRIPTION: 'WEBHOOK_SUBSCRIPTION',
  LISTENER: 'EVENT_LISTENER',
} as const;

/**
 * One delivery per change and target (the classic integration's uuid or an endpoint's), whichever
 * instance, path (bus or change log) or replay enqueues it first.
 */
const dedupeKey = (target: string, changeId: number) => `WEBHOOK:${target}:${changeId}`;
export const targetOfDedupeKey = (key: string) => key.split(':')[1];

/** Change-log rows read per organization and pass of the catch-up. */
const PAGE = 500;

/** Whether a subscription wants an event: its kind, its devices (none listed: all), door state and climate thresholds. */
export function subscriptionMatches(filter: SubscriptionFilter, event: SubscriptionEvent): boolean {
  if (filter.zapEnum !== event.zapEnum) return false;
  if (filter.uuids.length > 0 && !event.subjects.some((s) => filter.uuids.includes(s))) return false;
  if (filter.doorState && event.doorState !== filter.doorState) return false;
  const bounds: Array<[number | undefined, number | null, number | null]> = [
    [event.temperatureC, filter.tempLowerThreshold, filter.tempUpperThreshold],
    [event.humidityPercent, filter.humidityLowerThreshold, filter.humidityUpperThreshold],
  ];
  const limited = bounds.filter(([, lower, upper]) => lower !== null || upper !== null);
  // With thresholds, an event is wanted when one of its readings lies outside them.
  return (
    limited.length === 0 ||
    limited.some(([value, lower, upper]) => value !== undefined && ((lower !== null && value < lower) || (upper !== null && value > upper)))
  );
}

/** Whether an event listener wants a policy alert: one of its activities (none listed: any), of its device (none: any). */
export function listenerMatches(listener: ListenerFilter, alert: AlertPayload): boolean {
  if (listener.deviceUuid && alert.deviceUuid !== listener.deviceUuid) return false;
  return listener.activities.length === 0 || (alert.activityTrigger !== null && listener.activities.includes(alert.activityTrigger));
}

interface Target {
  kind: string;
  target: string;
  url: string;
  body: unknown;
  backoffSec: number | null;
}

/** An organization's webhook targets, read once for a run of its changes. */
export interface WebhookTargets {
  classic: Integration | null;
  endpoints: Endpoint[];
}

export async function webhookTargetsOf(deps: IntegrationDeps, orgUuid: string): Promise<WebhookTargets> {
  const [classic, endpoints] = await Promise.all([
    findIntegration(deps, orgUuid, 'WEBHOOK'),
    listOrgEndpoints(deps, orgUuid, ['ACTIVITY', 'DIAGNOSTIC', 'SUBSCRIPTION', 'LISTENER']),
  ]);
  return { classic, endpoints };
}

/**
 * Enqueues the deliveries a change makes for the organization's webhooks (`targets`, read after the change
 * committed): the classic webhook and the V2 URLs of its family, and the subscriptions it matches (a
 * subscription in its back-off is skipped). One write: the deliveries, the back-off slots and the device
 * states they depend on commit together. Answers how many deliveries were added.
 */
export async function dispatchChange(deps: IntegrationDeps, event: ChangeEvent, mediaUrl: string, targets: WebhookTargets): Promise<number> {
  if (!isWebhookEntity(event.entity)) return 0;
  const orgUuid = event.orgUuid;
  const { classic, endpoints } = targets;
  const classicSince = Number(classic?.settings.sinceChangeId ?? 0);
  const classicUrl = classic?.enabled && event.id > classicSince ? ((classic.settings.webhookUrl as string | null) ?? null) : null;
  const live = endpoints.filter((e) => !e.disabled && event.id > e.sinceChangeId);
  if (!classicUrl && live.length === 0) return 0;
  const added = await write(deps, systemActor(orgUuid, 'integrations.webhooks.dispatch'), async (w) => {
    const we = await webhookEventOf(w, event, mediaUrl);
    if (!we) return 0;
    const targets: Target[] = [];
    if (we.family !== 'SUBSCRIPTION') {
      if (classicUrl) targets.push({ kind: WEBHOOK_KINDS.CLASSIC, target: classic!.uuid, url: classicUrl, body: we.payload, backoffSec: null });
      for (const e of live.filter((x) => x.purpose === we.family))
        targets.push({ kind: WEBHOOK_KINDS[we.family], target: e.uuid, url: e.url, body: we.payload, backoffSec: null });
      if (we.family === 'ACTIVITY')
        for (const e of live.filter((x) => x.listener && listenerMatches(x.listener, we.payload)))
          targets.push({ kind: WEBHOOK_KINDS.LISTENER, target: e.uuid, url: e.url, body: we.payload, backoffSec: null });
    }
    const sub = we.subscription;
    if (sub) {
      const subscribed = live.filter(
        (e): e is Endpoint & { filter: SubscriptionFilter } => e.purpose === 'SUBSCRIPTION' && e.filter !== null && subscriptionMatches(e.filter, sub),
      );
      for (const e of subscribed) {
        const body = { webhookId: e.uuid, zapEnum: sub.zapEnum, orgUuid, changeId: event.id, timestampMs: event.timestampMs, ...sub.body };
        targets.push({ kind: WEBHOOK_KINDS.SUBSCRIPTION, target: e.uuid, url: e.url, body, backoffSec: e.backoffSec });
      }
    }
    let count = 0;
    for (const t of targets) {
      const key = dedupeKey(t.target, event.id);
      if (t.backoffSec) {
        if (await hasDelivery(w, orgUuid, key)) continue;
        if (!(await store.takeFiringSlot(w.tx, t.target, w.nowMs, t.backoffSec))) continue;
      }
      if (await addDelivery(w, { orgUuid, kind: t.kind, dedupeKey: key, targetUrl: t.url, body: t.body })) count++;
    }
    return count;
  });
  if (added > 0) await announceDeliveries(deps, orgUuid);
  return added;
}

export interface WebhookDispatcher {
  /** Reads the change log now rather than at the next poll. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs the organization webhooks of every change: at once from the bus's `change` announcements, and
 * from the durable change log for the changes an announcement did not bring (the instance died between
 * commit and dispatch, or the bus dropped it). The log is read per organization that has a webhook target,
 * after a cursor on the organization's positions that the instances share: positions commit in order, so
 * no change that commits late is ever passed over. Both paths enqueue under the same dedupe keys, so a
 * change is delivered once.
 */
export function startWebhookDispatcher(deps: IntegrationDeps, mediaUrl: string): WebhookDispatcher {
  const log = deps.log.child({ component: 'integrations.webhooks' });
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  // One run at a time, each organization's changes in the order they arrived (a device's offline and online are
  // told in order). The changes announced while a run is under way wait in `announced` and make the next run,
  // which reads each organization's targets once for all its changes: a burst (a site seeded, a door's busy
  // hour) costs a read of the targets per organization, not per change.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => {});
    return next;
  };
  const announced: ChangeEvent[] = [];
  async function dispatchAnnounced(events: ChangeEvent[]): Promise<void> {
    const byOrg = new Map<string, ChangeEvent[]>();
    for (const event of events) {
      const changes = byOrg.get(event.orgUuid);
      if (changes) changes.push(event);
      else byOrg.set(event.orgUuid, [event]);
    }
    for (const [orgUuid, changes] of byOrg) {
      try {
        const targets = await webhookTargetsOf(deps, orgUuid);
        for (const event of changes) {
          await dispatchChange(deps, event, mediaUrl, targets).catch((e) =>
            log.error({ err: e, orgUuid, changeId: event.id }, 'webhook dispatch failed; retried at the next poll'),
          );
        }
      } catch (e) {
        log.error({ err: e, orgUuid }, 'reading the webhook targets failed; the changes are dispatched at the next poll');
      }
    }
  }
  // The organizations that had a live webhook target at the last pass (null before the first, and after the store
  // is replaced), and those whose integrations or endpoints changed since: an announced change of any other
  // organization has nothing to deliver, and costs no read. Knowing a new target late only makes its first
  // deliveries late, never lost: the next pass reads the set again and catches the organization's log up.
  let withTargets: ReadonlySet<string> | null = null;
  const retargeted = new Set<string>();
  const mayHaveTargets = (orgUuid: string) => withTargets === null || withTargets.has(orgUuid) || retargeted.has(orgUuid);
  const unsubscribe = deps.bus.subscribe('change', (event) => {
    if (stopped) return;
    if (event.entity === INTEGRATION_ENTITY || event.entity === ENDPOINT_ENTITY) retargeted.add(event.orgUuid);
    if (!isWebhookEntity(event.entity) || !mayHaveTargets(event.orgUuid)) return;
    announced.push(event);
    if (announced.length === 1) void inTurn(() => dispatchAnnounced(announced.splice(0)));
  });
  const unsubscribeReplaced = deps.bus.subscribe('store.replaced', () => {
    withTargets = null;
  });

  /** Dispatches one organization's logged changes after its cursor; answers whether more wait. */
  async function passOrg(orgUuid: string, cursor: number, latest: number): Promise<boolean> {
    let done = cursor;
    let complete = true;
    const changes = await changesBetween(deps, orgUuid, cursor, latest, PAGE);
    const targets = await webhookTargetsOf(deps, orgUuid);
    for (const event of changes) {
      if (stopped) {
        complete = false;
        break;
      }
      try {
        await inTurn(() => dispatchChange(deps, event, mediaUrl, targets));
      } catch (e) {
        log.error({ err: e, orgUuid, changeId: event.id }, 'webhook dispatch failed; retried at the next poll');
        complete = false;
        break;
      }
      done = event.position;
    }
    if (done > cursor) await store.advanceCursor(deps.store.db, orgUuid, cursor, done, deps.clock.now());
    return complete && done < latest;
  }

  /** One pass over every organization with a webhook target; answers whether more changes wait. */
  async function pass(): Promise<boolean> {
    const db = deps.store.db;
    // A change of targets announced before this read is in it.
    const known = [...retargeted];
    const targets = await store.orgsWithTargets(db);
    withTargets = new Set(targets.keys());
    for (const orgUuid of known) retargeted.delete(orgUuid);
    const orgs = [...targets.keys()];
    const [cursors, latest] = await Promise.all([store.readCursors(db, orgs), lastPositions(deps, orgs)]);
    let more = false;
    for (const orgUuid of orgs) {
      if (stopped) return false;
      let cursor = cursors.get(orgUuid);
      if (cursor === undefined) {
        // A new target: the log is read from the change it was set up after (older changes are not its).
        await store.insertCursor(db, orgUuid, await positionAtOrBeforeId(db, orgUuid, targets.get(orgUuid)!), deps.clock.now());
        cursor = (await store.readCursors(db, [orgUuid])).get(orgUuid)!;
      }
      const last = latest.get(orgUuid) ?? 0;
      if (last > cursor && (await passOrg(orgUuid, cursor, last))) more = true;
    }
    return more;
  }

  function catchUp(): Promise<void> {
    running ??= (async () => {
      try {
        while (!stopped && (await pass()));
      } catch (e) {
        log.error({ err: e }, 'webhook catch-up failed');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void catchUp().finally(schedule), deps.config.webhooks.dispatchPollMs);
    timer.unref();
  }
  void catchUp().finally(schedule);

  return {
    catchUp,
    async stop() {
      stopped = true;
      unsubscribe();
      unsubscribeReplaced();
      if (timer) clearTimeout(timer);
      await running;
      await queue;
    },
  };
}
