import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { decideBadge, type BadgeDecision } from './badge-decision.js';
import { canonicalCredentialType, type CredentialType } from '../credentials/credential-formats.js';
import { findPresentedCredential, markCredentialUsed } from '../credentials/service.js';
import { recordDoorEvent, type ComponentEventRecord } from './service.js';
import { decideGuestPass, findPresentedGuestPass } from '../guest-passes/service.js';
import { unlockRelay } from '../doors/relay.service.js';
import { changeDoorState, findDoorOfDevice, type DoorRecord } from '../service.js';
import type { DoorPosition } from '../tables.js';

/**
 * What a door's devices report (reader, door position sensor, request-to-exit, controller), as the simulator
 * raises it: the same path a controller's report would take. A door is named by uuid alone, as its devices
 * know it; the writes are the door's organization's, by the simulator.
 */
type DeviceDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The entity name, on the stream, of a badge that matched no credential: it carries the hex to import it from. */
export const UNAUTHORIZED_BADGE_ENTITY = 'UNAUTHORIZED_BADGE';

/** The reference's CredentialSourceEnumType: how each type of credential reaches the controller. */
const CRED_SOURCE: Record<CredentialType | 'UNKNOWN', string> = {
  UNKNOWN: 'UNKNOWN',
  STANDARD_CSN: 'NFC',
  PLATFORM_SECURE_CSN: 'NFC',
  PLATFORM_SECURE_MOBILE: 'BLE',
  PIN_CODE: 'KEYPAD_WIEGAND',
  WIEGAND_H10301: 'WIEGAND',
  WIEGAND_H10304: 'WIEGAND',
  WIEGAND_D10202: 'WIEGAND',
  WIEGAND_64BIT_RAW: 'WIEGAND',
  VENDOR_CORP1000_STD_35: 'WIEGAND',
  VENDOR_CORP1000_STD_48: 'WIEGAND',
  CUSTOM: 'WIEGAND',
};

async function deviceWrite<T>(deps: DeviceDeps, doorUuid: string, operation: string, fn: (w: WriteScope, door: DoorRecord) => Promise<T>): Promise<T> {
  const door = await findDoorOfDevice(deps, doorUuid);
  if (!door) throw fail('NOT_FOUND', 'Door');
  return write(deps, systemActor(door.orgUuid, operation), (w) => fn(w, door));
}

export interface UnauthorizedBadgeRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  accessControlledDoorUuid: string;
  credentialHexValue: string;
  credentialType: CredentialType | null;
  timestampMs: number;
}

export interface BadgeOutcome {
  decision: BadgeDecision;
  credentialReceivedEvent: ComponentEventRecord;
  relayEvents: ComponentEventRecord[];
  unauthorizedBadge: UnauthorizedBadgeRecord | null;
}

/** Announces a badge that matched no credential, with what is needed to create the credential from it. */
function raiseUnauthorizedBadge(w: WriteScope, door: DoorRecord, event: ComponentEventRecord, type: CredentialType | null): UnauthorizedBadgeRecord {
  const badge: UnauthorizedBadgeRecord = {
    uuid: event.uuid,
    orgUuid: door.orgUuid,
    locationUuid: door.locationUuid,
    accessControlledDoorUuid: door.uuid,
    credentialHexValue: event.credentialHexValue!,
    credentialType: type,
    timestampMs: event.timestampMs,
  };
  w.change({
    entity: UNAUTHORIZED_BADGE_ENTITY,
    entityUuid: event.uuid,
    deviceUuid: door.controllerUuid,
    type: 'CREATE',
    update: badge,
    timestampMs: event.timestampMs,
  });
  return badge;
}

/**
 * A credential presented at a door's reader at `atMs` (default now): decided (badge-decision.ts), recorded as
 * a CredentialReceivedEvent, followed by the relay events when granted. An unknown credential also raises an
 * unauthorized badge carrying the hex value, from which the credential can be created.
 */
export async function presentCredential(
  deps: DeviceDeps,
  input: { doorUuid: string; hex: string; type?: string | null; atMs?: number | null },
): Promise<BadgeOutcome> {
  const type = input.type ? canonicalCredentialType(input.type) : null;
  const presented = input.hex.trim().toLowerCase();
  const format = type === 'PIN_CODE' ? /^[0-9]+$/ : /^[0-9a-f]+$/;
  if (!format.test(presented)) throw fail('INVALID_VALUE', `hex: must be ${type === 'PIN_CODE' ? 'the PIN digits' : 'hexadecimal digits (0-9, a-f)'}`);
  return deviceWrite(deps, input.doorUuid, 'simulate.badge', async (w, door) => {
    const atMs = input.atMs ?? w.nowMs;
    const credential = await findPresentedCredential(w, door.orgUuid, type, presented);
    // A value no credential holds may be a guest pass's (guest-passes.service.ts).
    const pass = credential ? null : await findPresentedGuestPass(w, door.orgUuid, presented);
    const decision = pass ? await decideGuestPass(w, door, pass, atMs) : await decideBadge(w, door, credential, atMs);
    const event = await recordDoorEvent(w, door, atMs, {
      type: 'CredentialReceivedEvent',
      userUuid: credential?.userUuid ?? null,
      credentialUuid: credential?.uuid ?? pass?.uuid ?? null,
      credentialHexValue: presented,
      credentialValue: credential?.value ?? null,
      credentialValueLengthBits: credential?.numBits ?? presented.length * 4,
      credSource: CRED_SOURCE[credential?.type ?? type ?? 'UNKNOWN'],
      authenticationResult: decision.authenticationResult,
      authorizationResult: decision.authorizationResult,
      authDecisionSource: decision.authDecisionSource,
      accessGrantOrRevocationUuid: decision.accessGrantOrRevocationUuid,
      activeDoorLockdownState: decision.doorState ?? (decision.lockedDown ? 'LOCKED_DOWN' : 'ACCESS_CONTROLLED'),
    });
    if (credential) await markCredentialUsed(w, credential, door, atMs);
    const relayEvents =
      decision.granted && door.hasLock ? (await unlockRelay(w, door, atMs, { correlationId: event.uuid, userUuid: credential?.userUuid })).events : [];
    const unauthorizedBadge = credential || pass ? null : raiseUnauthorizedBadge(w, door, event, type);
    return { decision, credentialReceivedEvent: event, relayEvents, unauthorizedBadge };
  });
}

/** The door position sensor reports a state. */
export async function reportDoorPosition(
  deps: DeviceDeps,
  input: { doorUuid: string; position: DoorPosition; atMs?: number | null },
): Promise<{ event: ComponentEventRecord; door: DoorRecord }> {
  return deviceWrite(deps, input.doorUuid, 'simulate.door', async (w, door) => {
    const event = await recordDoorEvent(w, door, input.atMs ?? w.nowMs, { type: 'DoorPositionIndicatorStateChangeEvent', newState: input.position });
    return { event, door: await changeDoorState(w, door, { position: input.position }) };
  });
}

/** The request-to-exit sensor fires: egress is always allowed, so a locked door's relay opens (lockdown or not). */
export async function requestToExit(
  deps: DeviceDeps,
  input: { doorUuid: string; atMs?: number | null },
): Promise<{ event: ComponentEventRecord; relayEvents: ComponentEventRecord[] }> {
  return deviceWrite(deps, input.doorUuid, 'simulate.rex', async (w, door) => {
    const atMs = input.atMs ?? w.nowMs;
    const event = await recordDoorEvent(w, door, atMs, { type: 'RequestToExitStateChangeEvent', newState: 'ACTIVE' });
    const relayEvents = door.hasLock ? (await unlockRelay(w, door, atMs, { correlationId: event.uuid })).events : [];
    return { event, relayEvents };
  });
}

/** The door's controller goes online or offline; an offline controller cannot take a remote unlock. */
export async function reportControllerOnline(deps: DeviceDeps, input: { doorUuid: string; online: boolean }): Promise<{ door: DoorRecord }> {
  return deviceWrite(deps, input.doorUuid, 'simulate.controller', async (w, door) => {
    if (door.controllerUuid === null) throw fail('INVALID_VALUE', `Door ${door.name} has no controller`);
    return { door: await changeDoorState(w, door, { controllerOnline: input.online }) };
  });
}
