import type { ChangeEvent } from '../../../store/change-event.js';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { newRuuid } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import * as store from '../store.js';
import type { RelayOverridesTable } from '../tables.js';
import { driveRelayByRule } from '../../access/components/service.js';
import { succeeded, type ActionFamily } from './action.js';
import { DEVICE_COMMAND_ENTITY, recordCommand, sendCommand } from './device-commands.js';

/** setTimeout's longest delay; a later restore is re-armed when its timer fires early. */
const MAX_DELAY_MS = 2 ** 31 - 1;
const OPPOSITE: Record<string, string> = { ACTIVE: 'INACTIVE', INACTIVE: 'ACTIVE' };

/**
 * `triggerComponentRelayActions`: a generic relay component of a door controller takes the state itself (its
 * shadow, announced; back in its steady state after the override duration). A relay device is sent a
 * DRIVE_RELAY command instead and, with an override duration, the write persists when to turn it back
 * (relay_overrides); the instance's override timers (startRelayOverrides) send the command that turns it back.
 */
export const relayActions: ActionFamily = (ctx) =>
  (ctx.action.triggerComponentRelayActions ?? []).map((r, i) => ({
    action: `triggerComponentRelayActions[${i}]`,
    async run() {
      const state = r.state ?? 'ACTIVE';
      const durationMs = r.overrideRelayDurationMs ?? (r.overrideRelayDurationSec ?? 0) * 1000;
      const outputType = r.outputType ?? 'TRANSIENT';
      if (r.componentUuid) {
        const shadow = await driveRelayByRule(ctx.deps, ctx.actor, r.componentUuid, { state, outputType, durationMs });
        if (shadow) return succeeded(`relay component ${shadow.componentUuid} is ${shadow.state}`);
      }
      const restoreState = OPPOSITE[state];
      const override = durationMs > 0 && restoreState ? { uuid: newRuuid(), restoreAtMs: ctx.deps.clock.now() + durationMs } : null;
      const payload = {
        state,
        outputType,
        durationMs,
        ...(override ? { overrideUuid: override.uuid, restoreAtMs: override.restoreAtMs } : {}),
      };
      return sendCommand(ctx, r.componentUuid ?? r.ownerDeviceUuid!, 'DRIVE_RELAY', payload, async (w, relay) => {
        if (!override) return;
        await store.insertRelayOverride(w.tx, {
          uuid: override.uuid,
          org_uuid: relay.orgUuid,
          relay_uuid: relay.uuid,
          firing_uuid: ctx.event.firingUuid,
          restore_state: restoreState,
          restore_at_ms: override.restoreAtMs,
        });
      });
    },
  }));

type OverrideDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>;

/** Turns a relay back, if no other instance did: the override's delete is the claim. */
async function restoreRelay(deps: OverrideDeps, o: RelayOverridesTable): Promise<void> {
  await write(deps, systemActor(o.org_uuid, 'relay.restore'), async (w) => {
    if (!(await store.takeRelayOverride(w.tx, o.uuid))) return;
    const relay = await findDevice(w, o.org_uuid, o.relay_uuid);
    if (relay) recordCommand(w, relay, 'DRIVE_RELAY', { state: o.restore_state, restoresOverride: o.uuid }, { ruleUuid: null, firingUuid: o.firing_uuid });
  });
}

/**
 * Runs the relay override timers of an instance, as the access relock scheduler does for doors: armed for
 * every persisted override on start and for every new one announced on the bus (whichever instance drove the
 * relay); when several instances arm the same one, exactly one turns the relay back.
 */
export async function startRelayOverrides(deps: OverrideDeps): Promise<{ stop(): Promise<void> }> {
  const log = deps.log.child({ domain: 'rules', job: 'relay-override' });
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const arm = (o: RelayOverridesTable) => {
    if (stopped || timers.has(o.uuid)) return;
    const timer = setTimeout(
      () => {
        timers.delete(o.uuid);
        if (o.restore_at_ms > deps.clock.now()) return arm(o);
        const run = restoreRelay(deps, o)
          .catch((err) => log.error({ err, override: o.uuid }, 'relay not turned back'))
          .finally(() => inFlight.delete(run));
        inFlight.add(run);
      },
      Math.min(Math.max(0, o.restore_at_ms - deps.clock.now()), MAX_DELAY_MS),
    );
    timer.unref();
    timers.set(o.uuid, timer);
  };
  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== DEVICE_COMMAND_ENTITY || event.type !== 'CREATE') return;
    const command = event.update as {
      orgUuid: string;
      deviceUuid: string;
      firingUuid: string;
      payload: { overrideUuid?: string; restoreAtMs?: number; state?: string };
    };
    const { overrideUuid, restoreAtMs, state } = command.payload;
    if (!overrideUuid || restoreAtMs === undefined) return;
    arm({
      uuid: overrideUuid,
      org_uuid: command.orgUuid,
      relay_uuid: command.deviceUuid,
      firing_uuid: command.firingUuid,
      restore_state: OPPOSITE[state ?? ''],
      restore_at_ms: restoreAtMs,
    });
  });
  // A reset or restore of the store replaces the overrides: the timers follow what it now holds.
  const unsubscribeReplaced = deps.bus.subscribe('store.replaced', () => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    void store
      .listRelayOverrides(deps.store.db)
      .then((all) => all.forEach(arm))
      .catch((err) => log.error({ err }, 'reading the relay overrides failed'));
  });
  // Subscribed first, so that an override made while the persisted ones are read is not missed.
  for (const o of await store.listRelayOverrides(deps.store.db)) arm(o);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      unsubscribeReplaced();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
