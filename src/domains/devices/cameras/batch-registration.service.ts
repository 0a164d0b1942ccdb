import { createHash } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import { systemActor, type Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { write } from '../../../bus/write.js';
import { findPendingRegistration } from '../../orgs/registrations/service.js';
import { registerPending } from '../pending-registration.js';
import { createDevice, type DeviceRecord } from '../service.js';
import * as devices from '../store.js';
import * as store from './batch-registration.store.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** Tokens are kept as digests: whoever reads the store cannot register cameras with them. */
const digestOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url').slice(0, 22);

/** At most this many uses answer one getBatchRegistrationUsage. */
export const MAX_USES_PER_READ = 1000;

export interface BatchRegistrationInput {
  locationUuid?: string | null;
  policyUuid?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  adminUserPermissionGroups?: string[] | null;
  readOnlyUserPermissionGroups?: string[] | null;
}

/**
 * `generateBatchRegistrationInfo`: a token that cameras present to register themselves into the organization
 * (ids named here are checked at the edge), landing at the location, under the policy, at the coordinates given.
 * `env` names this instance's region, which a camera's setup tool points at.
 */
export async function generateBatchRegistration(deps: WriteDeps & Pick<Deps, 'config'>, ctx: CallerContext, input: BatchRegistrationInput) {
  return write(deps, ctx, async (w) => {
    const token = newRuuid();
    await store.insertBatchToken(w.tx, {
      token: digestOf(token),
      org_uuid: ctx.orgUuid,
      location_uuid: input.locationUuid ?? null,
      policy_uuid: input.policyUuid ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      admin_groups: toJson(input.adminUserPermissionGroups ?? [])!,
      read_only_groups: toJson(input.readOnlyUserPermissionGroups ?? [])!,
      created_at_ms: w.nowMs,
    });
    w.audit({ entity: 'CAMERA_BATCH_REGISTRATION', entityUuid: ctx.orgUuid, action: 'CREATE' });
    return { env: deps.config.region, token };
  });
}

/** `getBatchRegistrationUsage`: the cameras that used a token since an instant (ms), with each attempt's result. */
export async function batchRegistrationUsage(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: { token: string; sinceMillis?: number | null }) {
  const token = await store.findBatchToken(deps.store.db, digestOf(input.token));
  if (!token || token.org_uuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Batch registration token');
  const uses = await store.listBatchUses(deps.store.db, ctx.orgUuid, token.token, input.sinceMillis ?? 0, MAX_USES_PER_READ);
  return { usageList: uses.map((u) => ({ di: u.device_uuid, hi: u.hardware_uuid, rs: u.result, ts: u.ts })) };
}

/**
 * A camera registers itself with a batch token (`gatehouse simulate batch-register`): it joins the token's
 * organization at its location, under its policy and at its coordinates; a serial number the organization already
 * has is refused (ALREADY_REGISTERED). Each attempt is a use of the token.
 */
export async function registerWithBatchToken(deps: WriteDeps, input: { token: string; serialNumber: string; name?: string }) {
  const token = await store.findBatchToken(deps.store.db, digestOf(input.token));
  if (!token) throw fail('NOT_FOUND', 'Batch registration token');
  return write(deps, systemActor(token.org_uuid, 'camera.batchRegister'), async (w) => {
    const existing = (await devices.listDevices(w.tx, token.org_uuid, ['CAMERA'])).some((d) => d.serial_number === input.serialNumber);
    let camera: DeviceRecord | null = null;
    if (!existing) {
      const defaults = {
        name: input.name ?? `Camera ${input.serialNumber}`,
        locationUuid: token.location_uuid,
        attributes: {
          ...(token.policy_uuid ? { policyUuid: token.policy_uuid } : {}),
          ...(token.latitude != null ? { latitude: token.latitude } : {}),
          ...(token.longitude != null ? { longitude: token.longitude } : {}),
          registeredWith: { adminGroups: fromJson<string[]>(token.admin_groups), readOnlyGroups: fromJson<string[]>(token.read_only_groups) },
        },
      };
      // A unit the organization gave a pending registration registers as that says.
      const pending = await findPendingRegistration(w, input.serialNumber);
      camera =
        pending?.orgUuid === token.org_uuid && pending.type === 'CAMERA'
          ? await registerPending(w, pending, defaults)
          : await createDevice(w, { kind: 'CAMERA', serialNumber: input.serialNumber, ...defaults });
    }
    const result = camera ? 'REGISTERED' : 'ALREADY_REGISTERED';
    await store.insertBatchUse(w.tx, {
      token: token.token,
      org_uuid: token.org_uuid,
      device_uuid: camera?.uuid ?? null,
      hardware_uuid: newRuuid(),
      serial_number: input.serialNumber,
      result,
      ts: w.nowMs,
    });
    return { result, camera };
  });
}
