import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { presentCredential, reportDoorPosition, requestToExit } from '../door-events/door-devices.service.js';
import * as accessStore from '../store.js';
import type { DoorPosition } from '../tables.js';
import { announceShadow, TYPE_RULES } from './service.js';
import * as store from './store.js';
import type { ComponentType } from './schemas.js';

type DeviceDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>;

/** The states each shadow type may report (the platform's enums). */
const STATES: Record<string, readonly string[]> = {
  DoorPositionIndicatorShadow: ['OPEN', 'CLOSED', 'AJAR', 'FORCED_OPEN', 'ERROR', 'UNKNOWN'],
  DoorRelayShadow: ['UNLOCKED', 'LOCKED', 'UNKNOWN'],
  GenericButtonShadow: ['BUTTON_DOWN', 'BUTTON_UP', 'UNKNOWN'],
  GenericInputShadow: ['ACTIVE', 'INACTIVE', 'UNKNOWN'],
  GenericRelayShadow: ['ACTIVE', 'INACTIVE', 'UNKNOWN'],
  RequestToExitShadow: ['ACTIVE', 'INACTIVE', 'UNKNOWN'],
  DoorReaderShadow: ['CONNECTED', 'DISCONNECTED', 'UNKNOWN'],
};
const DOOR_POSITIONS = new Set(['OPEN', 'CLOSED', 'AJAR', 'FORCED_OPEN']);

/**
 * What a component reports (`gatehouse simulate component`): its new state goes to its shadow and the stream;
 * where the platform ties the component to its door, the door hears it too (a REX pressed opens it, a door
 * position indicator moves it, a reader's read is a badge presented there). The door is the first one the
 * component's owner device drives.
 */
export async function reportComponent(deps: DeviceDeps, input: { componentUuid: string; state?: string; hex?: string; atMs?: number }) {
  const row = await store.findComponentOfAnyOrg(deps.store.db, input.componentUuid);
  if (!row) throw fail('NOT_FOUND', 'Component');
  const rule = TYPE_RULES[row.type as ComponentType];
  const state = input.state?.toUpperCase() ?? (rule.baseType === 'rex' ? 'ACTIVE' : rule.baseType === 'reader' ? 'CONNECTED' : undefined);
  if (!state || !STATES[rule.shadow]?.includes(state)) throw fail('INVALID_VALUE', `state: a ${row.type} reports one of ${STATES[rule.shadow].join(', ')}`);
  if (input.hex !== undefined && rule.baseType !== 'reader') throw fail('INVALID_VALUE', 'hex: only a reader reads credentials');
  const atMs = input.atMs ?? deps.clock.now();
  const shadow = await write(deps, systemActor(row.org_uuid, 'simulate.component'), async (w) => {
    await store.updateComponent(w.tx, row.org_uuid, row.uuid, { state, state_at_ms: atMs, transient_until_ms: null, updated_at_ms: w.nowMs });
    return announceShadow(w, { ...row, state, state_at_ms: atMs, transient_until_ms: null, updated_at_ms: w.nowMs });
  });
  const [doorUuid] = await accessStore.listDoorUuidsOfController(deps.store.db, row.org_uuid, row.owner_device_uuid);
  if (doorUuid) {
    if (rule.baseType === 'rex' && state === 'ACTIVE') await requestToExit(deps, { doorUuid, atMs });
    else if (rule.baseType === 'dpi' && DOOR_POSITIONS.has(state)) await reportDoorPosition(deps, { doorUuid, position: state as DoorPosition, atMs });
    else if (rule.baseType === 'reader' && input.hex) await presentCredential(deps, { doorUuid, hex: input.hex, atMs });
  }
  return { shadow, doorUuid: doorUuid ?? null };
}
