import { deviceOfFacet, newRuuid } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import { failed, succeeded, type ActionContext, type ActionFamily, type ActionRun } from './action.js';

/** The stream's entity name of a command sent to a device. */
export const DEVICE_COMMAND_ENTITY = 'DEVICE_COMMAND';

type Device = NonNullable<Awaited<ReturnType<typeof findDevice>>>;

/** A DEVICE_COMMAND change: a command to a (simulated) device. */
export type DeviceCommandRecord = ReturnType<typeof recordCommand>;

/**
 * Records a command to a (simulated) device inside a write: a DEVICE_COMMAND change of the device, on the
 * stream, delivered when the device is online (connection other than RED). Answers the record.
 */
export function recordCommand(
  w: WriteScope,
  device: Device,
  command: string,
  payload: Record<string, unknown>,
  origin: { ruleUuid: string | null; firingUuid: string },
) {
  const record = {
    uuid: newRuuid(),
    orgUuid: device.orgUuid,
    deviceUuid: device.uuid,
    command,
    payload,
    ...origin,
    status: device.connectionStatus !== 'RED' ? 'DELIVERED' : 'DEVICE_OFFLINE',
    createdAtMs: w.nowMs,
  };
  w.change({ entity: DEVICE_COMMAND_ENTITY, entityUuid: record.uuid, type: 'CREATE', deviceUuid: device.uuid, update: record });
  return record;
}

/**
 * Sends one command to a device of the rule's organization, in its own write; `then` runs in the same write
 * once the device took it. A missing or offline device fails the action.
 */
export async function sendCommand(
  ctx: ActionContext,
  deviceUuid: string,
  command: string,
  payload: Record<string, unknown>,
  then?: (w: WriteScope, device: Device) => Promise<void>,
) {
  return write(ctx.deps, ctx.actor, async (w) => {
    const device = await findDevice(w, ctx.actor.orgUuid, deviceUuid);
    if (!device) return failed(`device ${deviceUuid} not found`);
    const record = recordCommand(w, device, command, payload, { ruleUuid: ctx.rule.uuid, firingUuid: ctx.event.firingUuid });
    if (record.status !== 'DELIVERED') return failed(`device ${device.uuid} is offline`);
    await then?.(w, device);
    return succeeded(`${command} sent to ${device.uuid}`);
  });
}

/** Runs one command per device, as one action: it succeeds when every device took it. */
function commandRun(ctx: ActionContext, action: string, deviceUuids: readonly string[], command: string, payload: Record<string, unknown>): ActionRun {
  return {
    action,
    async run() {
      const outcomes = await Promise.all(deviceUuids.map((d) => sendCommand(ctx, d, command, payload)));
      const failures = outcomes.filter((o) => o.status === 'FAILED');
      return failures.length ? failed(failures.map((f) => f.detail).join('; ')) : succeeded(outcomes.map((o) => o.detail).join('; '));
    },
  };
}

const devicesOf = (ids: readonly string[] | null | undefined) => (ids ?? []).map((id) => deviceOfFacet(id) ?? id);

/**
 * The audio, custom and custom-LLM actions: commands to the rule's devices. Secrets (the third-party
 * speaker's password) are never put into a command record.
 */
export const deviceCommandActions: ActionFamily = (ctx) => {
  const a = ctx.action;
  const runs: ActionRun[] = [];
  for (const [i, p] of (a.audioPlaybackActions ?? []).entries()) {
    runs.push(
      commandRun(ctx, `audioPlaybackActions[${i}]`, p.audioGateways ?? [], 'PLAY_AUDIO', {
        audioClipUuid: p.audioClipUuid,
        playCount: p.playCount,
        loopDurationSec: p.loopDurationSec,
      }),
    );
  }
  const cancel = a.cancelLoopingAudioPlaybackAction;
  if (cancel)
    runs.push(
      commandRun(
        ctx,
        'cancelLoopingAudioPlaybackAction',
        devicesOf([...(cancel.audioDevices ?? []), ...(cancel._audioDevices ?? [])]),
        'CANCEL_LOOPING_AUDIO',
        {},
      ),
    );
  for (const [i, r] of (a.enableDisableAudioRecordActions ?? []).entries()) {
    runs.push(commandRun(ctx, `enableDisableAudioRecordActions[${i}]`, [r.audioDeviceUuid!], 'SET_AUDIO_RECORDING', { enable: r.enable ?? false }));
  }
  const phone = a.connectAudioDeviceToPhoneNumberAction;
  if (phone?.audioDeviceUuid) {
    runs.push(
      commandRun(ctx, 'connectAudioDeviceToPhoneNumberAction', [phone.audioDeviceUuid], 'CONNECT_PHONE', {
        phoneNumber: phone.phoneNumber,
        doorUuid: phone.doorUuid,
        optionalGreeting: phone.optionalGreeting,
      }),
    );
  }
  const speaker = a.thirdPartyAudioPlaybackAction;
  if (speaker?.proxyDeviceUuid) {
    const { password: _secret, ...shown } = speaker;
    runs.push(
      commandRun(ctx, 'thirdPartyAudioPlaybackAction', [speaker.proxyDeviceUuid], 'PLAY_THIRD_PARTY_AUDIO', { ...shown, authenticated: Boolean(_secret) }),
    );
  }
  for (const [i, c] of (a.customActions ?? []).entries()) {
    runs.push(commandRun(ctx, `customActions[${i}]`, [ctx.rule.sensorUuid], 'CUSTOM', { path: c.path, headerNames: Object.keys(c.headers ?? {}) }));
  }
  for (const [i, l] of (a.customLLMActions ?? []).entries()) {
    runs.push(commandRun(ctx, `customLLMActions[${i}]`, devicesOf(l.deviceFacetUuids), 'RUN_CUSTOM_LLM_PROMPT', { promptUuid: l.promptUuid }));
  }
  return runs;
};
