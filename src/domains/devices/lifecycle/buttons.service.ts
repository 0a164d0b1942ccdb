import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { toJson } from '../../../store/columns.js';
import { write } from '../../../bus/write.js';
import { applyDeviceDetails, type DeviceDetailsChange } from '../cameras/camera-details.service.js';
import type { DeviceClass } from '../device-reads/device-events.service.js';
import * as store from '../store.js';
import { deviceOfClass } from './service.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
const BUTTON: DeviceClass = { kinds: ['BUTTON'], what: 'Button' };

/** `button/updateDetails`: the details given are set (placement, cameras shown with its presses) and its mode. */
export async function updateButtonDetails(
  deps: WriteDeps,
  ctx: CallerContext,
  input: DeviceDetailsChange & { sensorUuid: string; buttonMode?: string | null },
): Promise<void> {
  const { sensorUuid, buttonMode, ...given } = input;
  const change = Object.fromEntries(Object.entries(given).filter(([, v]) => v != null)) as DeviceDetailsChange;
  await write(deps, ctx, async (w) => {
    const button = await deviceOfClass(w, ctx.orgUuid, BUTTON, sensorUuid);
    let updated = await applyDeviceDetails(w, button, change);
    if (buttonMode != null) {
      updated = { ...updated, attributes: { ...updated.attributes, buttonMode } };
      await store.updateDevice(w.tx, ctx.orgUuid, button.uuid, { attributes: toJson(updated.attributes)!, updated_at_ms: w.nowMs });
    }
    w.change({ entity: 'BUTTON', entityUuid: button.uuid, deviceUuid: button.uuid, type: 'UPDATE', update: updated });
  });
}

export interface ButtonConfigUpdate {
  deviceUuid: string;
  orgUuid?: string | null;
  button_test_mode_enabled?: boolean | null;
  button_emergency_onsite_contact?: { name?: string | null; phoneNumber?: string | null } | null;
}

/** `button/updateConfig`: test mode (presses fire no rule) and the on-site emergency contact; fields given are set. */
export async function updateButtonConfig(deps: WriteDeps, ctx: CallerContext, update: ButtonConfigUpdate): Promise<void> {
  if (update.orgUuid != null && update.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Button');
  await write(deps, ctx, async (w) => {
    const button = await deviceOfClass(w, ctx.orgUuid, BUTTON, update.deviceUuid);
    const config = { ...((button.attributes.config as Record<string, unknown> | undefined) ?? {}) };
    if (update.button_test_mode_enabled != null) config.button_test_mode_enabled = update.button_test_mode_enabled;
    if (update.button_emergency_onsite_contact !== undefined) config.button_emergency_onsite_contact = update.button_emergency_onsite_contact;
    config.lastModified = w.nowMs;
    const attributes = { ...button.attributes, config };
    await store.updateDevice(w.tx, ctx.orgUuid, button.uuid, { attributes: toJson(attributes)!, updated_at_ms: w.nowMs });
    w.change({
      entity: 'BUTTON',
      entityUuid: button.uuid,
      deviceUuid: button.uuid,
      type: 'UPDATE',
      update: { ...button, attributes, updatedAtMillis: w.nowMs },
    });
  });
}
