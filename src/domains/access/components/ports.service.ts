import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import * as store from './store.js';
import { toComponentRecord } from './service.js';
import type { HardwareComponentsTable } from './tables.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
interface PortRef {
  boardNum?: number | null;
  portNum?: number | null;
  portType?: string | null;
}

/** The settings fields that name a physical port. */
const PORT_FIELDS = ['port', 'd0Port', 'd1Port', 'buzzerPort', 'gledPort', 'rledPort', 'tamperPort'];
/** Port types several components may share (readers on one RS485 bus, told apart by OSDP address). */
const SHARED_PORT_TYPES = new Set(['RS485']);

interface PortUse {
  boardNum: number;
  portNum: number;
  portType: string;
  componentUuid: string;
}

function portUses(rows: readonly HardwareComponentsTable[]): PortUse[] {
  return rows.flatMap((row) => {
    const settings = JSON.parse(row.settings) as Record<string, PortRef | undefined>;
    return PORT_FIELDS.map((f) => settings[f])
      .filter((p): p is PortRef => typeof p?.boardNum === 'number' && typeof p.portNum === 'number')
      .map((p) => ({ boardNum: p.boardNum!, portNum: p.portNum!, portType: p.portType ?? 'UNKNOWN', componentUuid: row.uuid }));
  });
}

/**
 * The device's boards and ports as its components use them, and the ports used in a way the hardware cannot
 * honour: two port types on one port, or two components on a port type only one may use.
 */
function describePorts(rows: readonly HardwareComponentsTable[], hardwareType: string) {
  const byPort = new Map<string, PortUse[]>();
  for (const use of portUses(rows)) {
    const key = `${use.boardNum}:${use.portNum}`;
    byPort.set(key, [...(byPort.get(key) ?? []), use]);
  }
  const boardMap: Record<string, BoardConfig> = {};
  const invalid: { boardNum: number; portNum: number; componentUuids: string[]; reason: string }[] = [];
  for (const uses of byPort.values()) {
    const { boardNum, portNum } = uses[0];
    const usage: Record<string, string[]> = {};
    for (const u of uses) usage[u.portType] = [...new Set([...(usage[u.portType] ?? []), u.componentUuid])];
    const board = (boardMap[boardNum] ??= { boardNum, ownerHardwareType: hardwareType, portMap: {} });
    board.portMap[portNum] = {
      boardNum,
      portNum,
      label: `Board ${boardNum} port ${portNum}`,
      supportedPortTypes: Object.keys(usage),
      componentPortTypeUsageMap: usage,
    };
    const componentUuids = [...new Set(uses.map((u) => u.componentUuid))];
    if (Object.keys(usage).length > 1) invalid.push({ boardNum, portNum, componentUuids, reason: 'CONFLICTING_COMPONENT_PORT_TYPES' });
    else if (componentUuids.length > 1 && !SHARED_PORT_TYPES.has(uses[0].portType))
      invalid.push({ boardNum, portNum, componentUuids, reason: 'MAX_COMPONENTS_PER_PORT_TYPE_EXCEEDED' });
  }
  return { boardMap, invalid };
}

interface BoardConfig {
  boardNum: number;
  ownerHardwareType: string;
  portMap: Record<
    string,
    { boardNum: number; portNum: number; label: string; supportedPortTypes: string[]; componentPortTypeUsageMap: Record<string, string[]> }
  >;
}

export interface DevicePortConfigRecord {
  ownerDeviceUuid: string;
  orgUuid: string;
  boardMap: Record<string, BoardConfig>;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** `getOrCreateDevicePhysicalPortConfig`: the device's port configuration (made, and announced, on first request). */
export async function getOrCreatePortConfig(deps: WriteDeps, ctx: CallerContext, ownerDeviceUuid: string) {
  return write(deps, ctx, async (w) => {
    const owner = await findDevice(w, ctx.orgUuid, ownerDeviceUuid, ['DOOR_CONTROLLER', 'BADGE_READER', 'DOORBELL_CAMERA']);
    if (!owner) throw fail('NOT_FOUND', 'Owner device');
    let config = await store.findPortConfig(w.tx, ctx.orgUuid, owner.uuid);
    const rows = await store.listComponentsOfDevice(w.tx, ctx.orgUuid, owner.uuid);
    const components = rows.map(toComponentRecord);
    const hardwareType = String(components[0]?.ownerHardwareType ?? owner.attributes.hwVariation ?? 'DOOR_CONTROLLER_DC20');
    const { boardMap, invalid } = describePorts(rows, hardwareType);
    const created = !config;
    config ??= { owner_device_uuid: owner.uuid, org_uuid: ctx.orgUuid, created_at_ms: w.nowMs, updated_at_ms: w.nowMs };
    const devicePhysicalPortConfig: DevicePortConfigRecord = {
      ownerDeviceUuid: owner.uuid,
      orgUuid: ctx.orgUuid,
      boardMap,
      createdAtMillis: Number(config.created_at_ms),
      updatedAtMillis: Math.max(Number(config.updated_at_ms), ...components.map((c) => c.updatedAtMillis)),
    };
    if (created) {
      await store.insertPortConfig(w.tx, config);
      w.change({ entity: 'DEVICE_PHYSICAL_PORT_CONFIG', entityUuid: owner.uuid, deviceUuid: owner.uuid, type: 'CREATE', update: devicePhysicalPortConfig });
    }
    return { devicePhysicalPortConfig, deviceComponents: components, detectedInvalidPortConfigs: invalid };
  });
}
