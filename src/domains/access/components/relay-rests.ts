import type { ChangeEvent } from '../../../store/change-event.js';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import type { ComponentShadowRecord } from './schemas.js';
import { endTransientDrive, listTransientRelays, transientRelay, type TransientRelay } from './service.js';

/** setTimeout's longest delay; a later end is re-armed when its timer fires early. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Ends the transient drives of generic relays (`updateIntegratedGenericRelayTransientState`, a rule's TRANSIENT
 * relay action): armed for every relay in a transient state on start, and after every generic relay's shadow
 * change on the bus (whichever instance drove it). When its time comes, the relay is announced back in its steady
 * state; when several instances arm the same end, its conditional update lets exactly one of them announce it.
 * The end of a drive a rule's action made is that rule's doing too (its causes follow it), so it fires none of them.
 */
export async function startRelayRests(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): Promise<{ stop(): Promise<void> }> {
  const log = deps.log.child({ domain: 'access', job: 'relay-rest' });
  const timers = new Map<string, { untilMs: number; timer: NodeJS.Timeout }>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const track = (work: Promise<unknown>) => {
    const run = work.catch((err) => log.error({ err }, 'relay rest failed')).finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  const disarm = (componentUuid: string) => {
    clearTimeout(timers.get(componentUuid)?.timer);
    timers.delete(componentUuid);
  };
  const arm = (relay: TransientRelay, causedByRules?: readonly string[]) => {
    if (stopped || timers.get(relay.componentUuid)?.untilMs === relay.untilMs) return;
    disarm(relay.componentUuid);
    const timer = setTimeout(
      () => {
        timers.delete(relay.componentUuid);
        if (relay.untilMs > deps.clock.now()) return arm(relay, causedByRules);
        track(endTransientDrive(deps, { ...systemActor(relay.orgUuid, 'relay.rest'), causedByRules }, relay));
      },
      Math.min(Math.max(0, relay.untilMs - deps.clock.now()), MAX_DELAY_MS),
    );
    timer.unref();
    timers.set(relay.componentUuid, { untilMs: relay.untilMs, timer });
  };
  const armPersisted = async () => {
    for (const relay of await listTransientRelays(deps)) arm(relay);
  };
  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== 'COMPONENT_SHADOW' || (event.update as ComponentShadowRecord).type !== 'GenericRelayShadow') return;
    track(transientRelay(deps, event.orgUuid, event.entityUuid).then((relay) => (relay ? arm(relay, event.causedByRules) : disarm(event.entityUuid))));
  });
  // A reset or restore of the store replaces the relays: the timers follow what it now holds.
  const unsubscribeReplaced = deps.bus.subscribe('store.replaced', () => {
    [...timers.keys()].forEach(disarm);
    track(armPersisted());
  });
  // Subscribed first, so that a relay driven while the persisted ones are read is not missed.
  await armPersisted();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      unsubscribeReplaced();
      [...timers.keys()].forEach(disarm);
      await Promise.allSettled([...inFlight]);
    },
  };
}
