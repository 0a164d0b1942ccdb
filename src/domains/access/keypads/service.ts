import { createHash, randomInt } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write } from '../../../bus/write.js';
import { applyDeviceDetails } from '../../devices/cameras/camera-details.service.js';
import type { DeviceClass } from '../../devices/device-reads/device-events.service.js';
import { deleteDevice, deviceOfClass } from '../../devices/lifecycle/service.js';
import { getKeypadsForOrg, keypadConfigOf } from '../../devices/sensors/service.js';
import { createDevice, findLocation } from '../../devices/service.js';
import { findVideoWall } from '../../devices/video-walls/service.js';
import * as store from './store.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export const KEYPAD: DeviceClass = { kinds: ['KEYPAD'], what: 'Keypad' };
/** How long a keypad's activation token can be claimed. */
export const ACTIVATION_TOKEN_TTL_MS = 60 * 60 * 1000;

/** 32 letters and digits that cannot be mistaken for one another (no I, O, 0, 1): 12 of them make 60 bits. */
const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const digestOf = (token: string) => createHash('sha256').update(token.trim().toUpperCase()).digest('hex');

/**
 * What a keypad does when it starts unclaimed (`gatehouse simulate keypad-activation`): it asks for an
 * activation token and shows it; an administrator claims it (claimKeypadActivationToken). Only the token's
 * digest is kept.
 */
export async function issueActivationToken(deps: Pick<Deps, 'store' | 'clock'>, input: { platform?: 'ANDROID' | 'IOS'; ipAddress?: string }) {
  const nowMs = deps.clock.now();
  const token = Array.from({ length: 12 }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');
  await store.deleteExpiredTokens(deps.store.db, nowMs);
  await store.insertToken(deps.store.db, {
    token_digest: digestOf(token),
    platform: input.platform ?? null,
    ip_address: input.ipAddress ?? null,
    created_at_ms: nowMs,
    expires_at_ms: nowMs + ACTIVATION_TOKEN_TTL_MS,
    org_uuid: null,
    keypad_uuid: null,
    claimed_at_ms: null,
  });
  return { activationToken: token, expiresAtMs: nowMs + ACTIVATION_TOKEN_TTL_MS };
}

/** What the keypad polls while it shows its token: whether it was claimed, and as which keypad. */
export async function activationTokenStatus(deps: Pick<Deps, 'store' | 'clock'>, token: string) {
  const row = await store.findToken(deps.store.db, digestOf(token));
  if (!row) throw fail('NOT_FOUND', 'Activation token');
  return { claimed: row.claimed_at_ms !== null, keypadUuid: row.keypad_uuid, expired: row.claimed_at_ms === null && row.expires_at_ms <= deps.clock.now() };
}

/**
 * `claimKeypadActivationToken`: the keypad showing the token becomes a keypad of the caller's organization, at
 * the location and with the name given. A token claimed already, expired or unknown answers the same.
 */
export async function claimKeypadActivationToken(deps: WriteDeps, ctx: CallerContext, input: { activationToken: string; locationUuid: string; name: string }) {
  const name = input.name.trim();
  if (!name) throw fail('INVALID_VALUE', 'name: must not be empty');
  const digest = digestOf(input.activationToken);
  await write(deps, ctx, async (w) => {
    const token = await store.findToken(w.tx, digest);
    if (!token || token.claimed_at_ms !== null || token.expires_at_ms <= w.nowMs) throw fail('NOT_FOUND', 'Activation token');
    const keypad = await createDevice(w, {
      kind: 'KEYPAD',
      name,
      locationUuid: input.locationUuid,
      attributes: { platform: token.platform, ipAddress: token.ip_address },
    });
    if (!(await store.claimToken(w.tx, digest, { orgUuid: ctx.orgUuid, keypadUuid: keypad.uuid, nowMs: w.nowMs }))) throw fail('NOT_FOUND', 'Activation token');
  });
}

export const getKeypadsForLocation = (deps: Pick<Deps, 'store'>, ctx: CallerContext, locationUuid: string) => getKeypadsForOrg(deps, ctx, locationUuid);

export interface KeypadUpdate {
  keypadUuid: string;
  name?: string | null;
  locationUuid?: string | null;
  floorNumber?: number | null;
  latitude?: number | null;
  longitude?: number | null;
  armCountdownSecs?: number | null;
  buildingAdminPhoneNumber?: string | null;
  showCallBuildingAdmin?: boolean | null;
  additionalFeaturesDisabled?: boolean | null;
  logoUuid?: string | null;
  videoWallUuid?: string | null;
  qualifiedAddress?: Record<string, string | null | undefined> | null;
  timeZoneId?: string | null;
  locationName?: string | null;
}

/** The keypad's own settings an update may set (the rest are its details, set as every device's). */
const KEYPAD_SETTINGS = [
  'armCountdownSecs',
  'buildingAdminPhoneNumber',
  'showCallBuildingAdmin',
  'additionalFeaturesDisabled',
  'logoUuid',
  'videoWallUuid',
  'qualifiedAddress',
] as const;

/**
 * `updateKeypad`: the fields given are set, the details through the same applyDeviceDetails as every device; a
 * video wall must be the organization's. A keypad shows its location's name and time zone: those are changed on
 * the location, so a different one is refused.
 */
export async function updateKeypad(deps: WriteDeps, ctx: CallerContext, input: KeypadUpdate): Promise<void> {
  await write(deps, ctx, async (w) => {
    const keypad = await deviceOfClass(w, ctx.orgUuid, KEYPAD, input.keypadUuid);
    if (input.videoWallUuid != null && !(await findVideoWall(w, ctx.orgUuid, input.videoWallUuid))) throw fail('NOT_FOUND', 'Video wall');
    const location = await findLocation(w, ctx.orgUuid, input.locationUuid ?? keypad.locationUuid ?? '');
    if (input.timeZoneId != null && input.timeZoneId !== location?.tz)
      throw fail('INVALID_VALUE', "timeZoneId: a keypad shows its location's time zone; change the location's");
    if (input.locationName != null && input.locationName !== location?.name)
      throw fail('INVALID_VALUE', "locationName: a keypad shows its location's name; rename the location");
    const settings = Object.fromEntries(KEYPAD_SETTINGS.filter((k) => input[k] != null).map((k) => [k, input[k]]));
    const details = Object.fromEntries(
      (['name', 'locationUuid', 'floorNumber', 'latitude', 'longitude'] as const).filter((k) => input[k] != null).map((k) => [k, input[k]]),
    );
    const updated = await applyDeviceDetails(w, { ...keypad, attributes: { ...keypad.attributes, ...settings } }, details);
    w.change({ entity: 'KEYPAD', entityUuid: updated.uuid, deviceUuid: updated.uuid, type: 'UPDATE', update: await keypadConfigOf(w, updated) });
  });
}

/** `unregisterKeypad`: the keypad is deleted as every device is (deleteDevice), its DELETE announced. */
export async function unregisterKeypad(deps: WriteDeps & Pick<Deps, 'deviceReferences'>, ctx: CallerContext, keypadUuid: string): Promise<void> {
  await deleteDevice(deps, ctx, KEYPAD, keypadUuid);
}
