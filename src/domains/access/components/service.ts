import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { orgUuidsIn } from '../../../store/org-uuids.js';
import { forgetRecord, type RecordFinder } from '../../../records/references.js';
import { write, type Actor, type WriteScope } from '../../../bus/write.js';
import { findDevice, type DeviceRecord } from '../../devices/service.js';
import type { ComponentShadowRecord, ComponentType } from './schemas.js';
import * as store from './store.js';
import type { HardwareComponentsTable } from './tables.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
/** A delete also takes the components out of the records that name them (a rule's trigger or relay action). */
type DeleteDeps = WriteDeps & Pick<Deps, 'recordCleaners'>;
type ReadDeps = Pick<Deps, 'store'>;
type Settings = Record<string, unknown>;

/** The devices components are wired to. */
export const COMPONENT_OWNER_KINDS = ['DOOR_CONTROLLER', 'BADGE_READER', 'DOORBELL_CAMERA'] as const;
const OWNER_HARDWARE: Record<string, string> = { DOOR_CONTROLLER: 'DOOR_CONTROLLER_DC20', BADGE_READER: 'BADGE_READER_DR40', DOORBELL_CAMERA: 'CAMERA_R200' };

interface TypeRule {
  baseType: string;
  /** The platform's shadow type, and the state a fresh component's shadow starts in. */
  shadow: string;
  initialState: string;
  /** Fields the server derives from the type (and from the settings). */
  derived: (settings: Settings) => Settings;
  defaults: Settings;
}

const readerDefaults = { disableCardReader: false, disableKeypad: false, otherReaderUnlockAudioFeedbackEnabled: true, remoteUnlockAudioFeedbackEnabled: true };

export const TYPE_RULES: Record<ComponentType, TypeRule> = {
  IntegratedDoorPositionIndicator: {
    baseType: 'dpi',
    shadow: 'DoorPositionIndicatorShadow',
    initialState: 'UNKNOWN',
    derived: () => ({ dpiType: 'integrated' }),
    defaults: { normalState: 'NC' },
  },
  IntegratedDoorRelay: {
    baseType: 'relay',
    shadow: 'DoorRelayShadow',
    initialState: 'LOCKED',
    derived: () => ({ relayType: 'integrated', rateLimitingEnabled: false }),
    defaults: {},
  },
  IntegratedGenericButton: {
    baseType: 'button',
    shadow: 'GenericButtonShadow',
    initialState: 'BUTTON_UP',
    derived: (s) => ({ buttonType: s.mode === 'DOORBELL' ? 'integrated_doorbell_button' : 'integrated_generic_button' }),
    defaults: { mode: 'NONE' },
  },
  IntegratedGenericInput: {
    baseType: 'aux',
    shadow: 'GenericInputShadow',
    initialState: 'INACTIVE',
    derived: () => ({ auxType: 'integrated_generic_input' }),
    defaults: { normalState: 'NO' },
  },
  IntegratedGenericRelay: {
    baseType: 'aux',
    shadow: 'GenericRelayShadow',
    initialState: 'INACTIVE',
    derived: () => ({ auxType: 'integrated_generic_relay' }),
    defaults: { steadyState: 'INACTIVE' },
  },
  IntegratedRequestToExit: {
    baseType: 'rex',
    shadow: 'RequestToExitShadow',
    initialState: 'INACTIVE',
    derived: () => ({ rexType: 'integrated' }),
    defaults: { normalState: 'NO', intentOnly: false, intentOnlyEvents: false },
  },
  OsdpDoorReader: {
    baseType: 'reader',
    shadow: 'DoorReaderShadow',
    initialState: 'UNKNOWN',
    derived: () => ({ readerType: 'osdp', disableWaveToUnlock: true }),
    defaults: { ...readerDefaults, allowUnencrypted: false },
  },
  RhombusOsdpDoorReader: {
    baseType: 'reader',
    shadow: 'DoorReaderShadow',
    initialState: 'UNKNOWN',
    derived: () => ({ readerType: 'rhombus_osdp', allowCredsDuringUnlock: false }),
    defaults: { ...readerDefaults, disableWaveToUnlock: false },
  },
  WiegandDoorReader: {
    baseType: 'reader',
    shadow: 'DoorReaderShadow',
    initialState: 'UNKNOWN',
    derived: () => ({ readerType: 'wiegand', disableWaveToUnlock: true }),
    defaults: { ...readerDefaults, csnEndian: 'MSB' },
  },
};

const ruleOf = (type: string): TypeRule | undefined => TYPE_RULES[type as ComponentType];

/** A component as the API returns it: the base fields, its settings, and what its type derives. */
export function toComponentRecord(row: HardwareComponentsTable): ComponentRecord {
  const settings = JSON.parse(row.settings) as Settings;
  const rule = ruleOf(row.type);
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    ownerDeviceUuid: row.owner_device_uuid,
    type: row.type,
    baseType: rule?.baseType as 'reader',
    name: row.name,
    portImmutable: false,
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
    ...settings,
    ...(rule?.derived(settings) ?? {}),
    ...(row.type === 'IntegratedGenericRelay' ? { stateChangedAtMillis: row.state_at_ms === null ? null : Number(row.state_at_ms) } : {}),
  };
}
export interface ComponentRecord extends Settings {
  uuid: string;
  orgUuid: string;
  ownerDeviceUuid: string;
  type: string;
  baseType: 'reader';
  name: string;
  portImmutable: boolean;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/**
 * A component's shadow: the state it last reported. A generic relay driven for a while (a transient state)
 * is back in its steady state once that while is over.
 */
export function toShadow(row: HardwareComponentsTable, nowMs: number): ComponentShadowRecord {
  const rule = ruleOf(row.type);
  const settings = JSON.parse(row.settings) as Settings;
  const transientOver = row.transient_until_ms !== null && Number(row.transient_until_ms) <= nowMs;
  const state = transientOver ? String(settings.steadyState ?? 'INACTIVE') : (row.state ?? rule?.initialState ?? 'UNKNOWN');
  const supervised = ['DoorPositionIndicatorShadow', 'RequestToExitShadow', 'GenericInputShadow', 'GenericButtonShadow'].includes(rule?.shadow ?? '');
  return {
    componentUuid: row.uuid,
    orgUuid: row.org_uuid,
    ownerDeviceUuid: row.owner_device_uuid,
    type: rule?.shadow ?? 'UNKNOWN',
    state,
    stateUpdateEventTimestampMs: transientOver ? Number(row.transient_until_ms) : row.state_at_ms === null ? null : Number(row.state_at_ms),
    // Only a supervised input's shadow has a supervision state in the catalogue (none, rather than null, elsewhere).
    ...(supervised ? { supervisionState: 'NORMAL' } : {}),
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
  };
}

async function ownerOf(source: ReadSource, orgUuid: string, uuid: string): Promise<DeviceRecord> {
  const owner = await findDevice(source, orgUuid, uuid, COMPONENT_OWNER_KINDS);
  if (!owner) throw fail('NOT_FOUND', 'Owner device');
  return owner;
}

async function componentOf(source: ReadSource, orgUuid: string, uuid: string, type?: ComponentType): Promise<HardwareComponentsTable> {
  const row = await store.findComponent(dbOf(source), orgUuid, uuid);
  if (!row || (type && row.type !== type)) throw fail('NOT_FOUND', 'Component');
  return row;
}

function announce(w: WriteScope, row: HardwareComponentsTable, type: 'CREATE' | 'UPDATE' | 'DELETE'): ComponentRecord {
  const record = toComponentRecord(row);
  w.change({ entity: 'COMPONENT', entityUuid: row.uuid, deviceUuid: row.owner_device_uuid, type, update: record });
  return record;
}

const given = (input: Settings): Settings => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null));

/** The next free OSDP address on an RS485 port (readers sharing a bus are told apart by address). */
async function nextOsdpAddress(w: WriteScope, ownerUuid: string, port: unknown): Promise<number> {
  const { boardNum, portNum } = (port ?? {}) as Settings;
  const taken = new Set(
    (await store.listComponentsOfDevice(w.tx, w.actor.orgUuid, ownerUuid))
      .map((row) => JSON.parse(row.settings) as Settings)
      .filter(
        (s) =>
          typeof s.osdpAddress === 'number' && (s.port as Settings | undefined)?.boardNum === boardNum && (s.port as Settings | undefined)?.portNum === portNum,
      )
      .map((s) => s.osdpAddress as number),
  );
  let address = 0;
  while (taken.has(address)) address++;
  return address;
}

/** The `create<Type>` operations: a component of `type` wired to a device of the caller's organization. */
export async function createComponent(
  deps: WriteDeps,
  ctx: CallerContext,
  type: ComponentType,
  input: { ownerDeviceUuid: string } & Settings,
): Promise<ComponentRecord> {
  const { ownerDeviceUuid, name, ...fields } = input;
  return write(deps, ctx, async (w) => {
    const owner = await ownerOf(w, ctx.orgUuid, ownerDeviceUuid);
    const settings: Settings = {
      ...TYPE_RULES[type].defaults,
      ...given(fields),
      ownerHardwareType: String(owner.attributes.hwVariation ?? OWNER_HARDWARE[owner.deviceType]),
    };
    if (type === 'RhombusOsdpDoorReader' && typeof fields.deviceUuid === 'string') {
      const reader = await findDevice(w, ctx.orgUuid, fields.deviceUuid, ['BADGE_READER']);
      if (!reader) throw fail('NOT_FOUND', 'Reader device');
      Object.assign(settings, { serialNumber: reader.serialNumber, hardwareUuid: reader.uuid });
    }
    if (type === 'OsdpDoorReader' || type === 'RhombusOsdpDoorReader') settings.osdpAddress = await nextOsdpAddress(w, owner.uuid, settings.port);
    const row: HardwareComponentsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      owner_device_uuid: owner.uuid,
      type,
      name: typeof name === 'string' && name.trim() ? name.trim() : `${type} ${owner.name}`,
      settings: JSON.stringify(settings),
      state: type === 'IntegratedGenericRelay' ? String(settings.steadyState) : null,
      state_at_ms: type === 'IntegratedGenericRelay' ? w.nowMs : null,
      transient_until_ms: null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertComponent(w.tx, row);
    return announce(w, row, 'CREATE');
  });
}

/** The `update<Type>` operations: the fields given change; a component of another type is not found. */
export async function updateComponent(
  deps: WriteDeps,
  ctx: CallerContext,
  type: ComponentType,
  input: { componentUuid: string } & Settings,
): Promise<ComponentRecord> {
  const { componentUuid, name, ...fields } = input;
  return write(deps, ctx, async (w) => {
    const row = await componentOf(w, ctx.orgUuid, componentUuid, type);
    const settings = { ...(JSON.parse(row.settings) as Settings), ...given(fields) };
    const updated: HardwareComponentsTable = {
      ...row,
      name: typeof name === 'string' && name.trim() ? name.trim() : row.name,
      settings: JSON.stringify(settings),
      updated_at_ms: w.nowMs,
    };
    await store.updateComponent(w.tx, ctx.orgUuid, row.uuid, { name: updated.name, settings: updated.settings, updated_at_ms: w.nowMs });
    return announce(w, updated, 'UPDATE');
  });
}

/** The relay rests in `steadyState` from now on, and takes it now (announced: the component and its shadow). */
async function restRelay(w: WriteScope, row: HardwareComponentsTable, steadyState: string): Promise<HardwareComponentsTable> {
  const settings = { ...(JSON.parse(row.settings) as Settings), steadyState };
  const patch = { settings: JSON.stringify(settings), state: steadyState, state_at_ms: w.nowMs, transient_until_ms: null, updated_at_ms: w.nowMs };
  await store.updateComponent(w.tx, row.org_uuid, row.uuid, patch);
  const updated = { ...row, ...patch };
  announceShadow(w, updated);
  announce(w, updated, 'UPDATE');
  return updated;
}

/** The relay is driven to `state` for `durationMs` (then back in its steady state), or until driven again (announced: its shadow). */
async function driveRelayTo(
  w: WriteScope,
  row: HardwareComponentsTable,
  state: string,
  durationMs: number | null | undefined,
): Promise<HardwareComponentsTable> {
  const patch = { state, state_at_ms: w.nowMs, transient_until_ms: durationMs ? w.nowMs + durationMs : null, updated_at_ms: w.nowMs };
  await store.updateComponent(w.tx, row.org_uuid, row.uuid, patch);
  const updated = { ...row, ...patch };
  announceShadow(w, updated);
  return updated;
}

/** `updateIntegratedGenericRelaySteadyState`: the state the relay rests in, which it takes now. */
export async function setRelaySteadyState(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { componentUuid: string; steadyState: string },
): Promise<ComponentRecord> {
  return write(deps, ctx, async (w) =>
    toComponentRecord(await restRelay(w, await componentOf(w, ctx.orgUuid, input.componentUuid, 'IntegratedGenericRelay'), input.steadyState)),
  );
}

/**
 * `updateIntegratedGenericRelayTransientState`: the relay is driven active (or inactive) for `durationMs`, then
 * back in its steady state (the shadow reads so from then on); without a duration it stays driven.
 */
export async function driveRelay(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { componentUuid: string; activate?: boolean | null; durationMs?: number | null; deviceUuid?: string | null },
): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await componentOf(w, ctx.orgUuid, input.componentUuid, 'IntegratedGenericRelay');
    if (input.deviceUuid && input.deviceUuid !== row.owner_device_uuid) throw fail('NOT_FOUND', 'Component');
    await driveRelayTo(w, row, input.activate === false ? 'INACTIVE' : 'ACTIVE', input.durationMs);
  });
}

/** Whether the organization has a generic relay component of that uuid (what a rule's relay action may drive). */
export async function isGenericRelay(source: ReadSource, orgUuid: string, uuid: string): Promise<boolean> {
  return (await store.findComponent(dbOf(source), orgUuid, uuid))?.type === 'IntegratedGenericRelay';
}

/**
 * A rule's relay action on a generic relay component (`triggerComponentRelayActions`): STEADY makes `state` the
 * one it rests in; TRANSIENT drives it there for `durationMs` (none: until driven again). The shadow as it now
 * reads, or null when the organization has no such relay.
 */
export async function driveRelayByRule(
  deps: WriteDeps,
  actor: Actor,
  componentUuid: string,
  input: { state: string; outputType: string; durationMs: number },
): Promise<ComponentShadowRecord | null> {
  return write(deps, actor, async (w) => {
    const row = await store.findComponent(w.tx, actor.orgUuid, componentUuid);
    if (row?.type !== 'IntegratedGenericRelay') return null;
    const driven = input.outputType === 'STEADY' ? await restRelay(w, row, input.state) : await driveRelayTo(w, row, input.state, input.durationMs);
    return toShadow(driven, w.nowMs);
  });
}

/** A relay whose transient state ends at a time (relay-rests.ts arms it). */
export interface TransientRelay {
  orgUuid: string;
  componentUuid: string;
  untilMs: number;
}

/** The relay's transient state, if it is in one (read after its shadow's change, to arm its end). */
export async function transientRelay(source: ReadSource, orgUuid: string, componentUuid: string): Promise<TransientRelay | null> {
  const row = await store.findComponent(dbOf(source), orgUuid, componentUuid);
  if (!row || row.transient_until_ms === null) return null;
  return { orgUuid, componentUuid, untilMs: Number(row.transient_until_ms) };
}

export async function listTransientRelays(source: ReadSource): Promise<TransientRelay[]> {
  return (await store.listTransientRelays(dbOf(source))).map((r) => ({ orgUuid: r.org_uuid, componentUuid: r.uuid, untilMs: r.transient_until_ms }));
}

/**
 * A transient drive that ends: the relay takes its steady state again, as of the drive's end, and its shadow is
 * announced. Nothing when it was driven again meanwhile (or another instance ended it first).
 */
export async function endTransientDrive(deps: WriteDeps, actor: Actor, relay: TransientRelay): Promise<void> {
  await write(deps, actor, async (w) => {
    const row = await store.findComponent(w.tx, relay.orgUuid, relay.componentUuid);
    if (!row || row.transient_until_ms === null || Number(row.transient_until_ms) !== relay.untilMs) return;
    const steadyState = String((JSON.parse(row.settings) as Settings).steadyState ?? 'INACTIVE');
    const patch = { state: steadyState, state_at_ms: relay.untilMs, transient_until_ms: null, updated_at_ms: w.nowMs };
    if (await store.endTransientState(w.tx, row, relay.untilMs, patch)) announceShadow(w, { ...row, ...patch });
  });
}

export function announceShadow(w: WriteScope, row: HardwareComponentsTable): ComponentShadowRecord {
  const shadow = toShadow(row, w.nowMs);
  w.change({ entity: 'COMPONENT_SHADOW', entityUuid: row.uuid, deviceUuid: row.owner_device_uuid, type: 'UPDATE', update: shadow });
  return shadow;
}

/** The components of the organization among `uuids` (the `component` record kind). */
export const findComponentUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'hardware_components', orgUuid, uuids);

/** Deletes components in the writer's transaction: each announced, and taken out of every record that names it. */
async function removeComponents(deps: Pick<Deps, 'recordCleaners'>, w: WriteScope, orgUuid: string, rows: readonly HardwareComponentsTable[]) {
  await store.deleteComponents(
    w.tx,
    orgUuid,
    rows.map((r) => r.uuid),
  );
  for (const row of rows) {
    announce(w, row, 'DELETE');
    await forgetRecord(deps, w, 'component', row.uuid);
  }
}

export async function deleteComponent(deps: DeleteDeps, ctx: CallerContext, componentUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => removeComponents(deps, w, ctx.orgUuid, [await componentOf(w, ctx.orgUuid, componentUuid)]));
}

/** Removes every component of a device (and its port configuration), in the writer's transaction. */
export async function forgetComponentsOf(deps: Pick<Deps, 'recordCleaners'>, w: WriteScope, device: Pick<DeviceRecord, 'uuid' | 'orgUuid'>): Promise<void> {
  await removeComponents(deps, w, device.orgUuid, await store.listComponentsOfDevice(w.tx, device.orgUuid, device.uuid));
  await store.deletePortConfig(w.tx, device.orgUuid, device.uuid);
}

export async function deleteComponentsOfDevice(deps: DeleteDeps, ctx: CallerContext, ownerDeviceUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const owner = await ownerOf(w, ctx.orgUuid, ownerDeviceUuid);
    await forgetComponentsOf(deps, w, owner);
  });
}

export async function listComponentsOfDevice(deps: ReadDeps, ctx: CallerContext, ownerDeviceUuid: string): Promise<ComponentRecord[]> {
  const owner = await ownerOf(deps, ctx.orgUuid, ownerDeviceUuid);
  return (await store.listComponentsOfDevice(deps.store.db, ctx.orgUuid, owner.uuid)).map(toComponentRecord);
}

export async function shadowsOfDevice(deps: ReadDeps & Pick<Deps, 'clock'>, ctx: CallerContext, ownerDeviceUuid: string): Promise<ComponentShadowRecord[]> {
  const owner = await ownerOf(deps, ctx.orgUuid, ownerDeviceUuid);
  const now = deps.clock.now();
  return (await store.listComponentsOfDevice(deps.store.db, ctx.orgUuid, owner.uuid)).map((row) => toShadow(row, now));
}

/** `findAllComponentShadows`: the shadows of the components named (unknown ones are left out), or of all of them. */
export async function shadowMap(deps: ReadDeps & Pick<Deps, 'clock'>, ctx: CallerContext, uuids: readonly string[] | null | undefined) {
  const rows = uuids
    ? await store.findComponents(deps.store.db, ctx.orgUuid, [...new Set(uuids)])
    : await store.listComponentsOfOrg(deps.store.db, ctx.orgUuid);
  const now = deps.clock.now();
  return Object.fromEntries(rows.map((row) => [row.uuid, toShadow(row, now)]));
}
