import { deviceOfFacet, newRuuid } from '../../../ids.js';
import { write } from '../../../store/write.js';
import { findDevice } from '../../devices/service.js';
import { failed, succeeded, type ActionContext, type ActionFamily, type ActionRun } from './action.js';

/** The stream's entity name of a command sent to a device. */
export const DEVICE_COMMAND_ENTITY = 'DEVICE_COMMAND';

/**
 * Sends one command to a (simulated) device: recorded on the stream as a DEVICE_COMMAND of the device,
 * delivered when the device is there and online. A device that is offline (connection RED) fails the action.
 */
async function sendCommand(ctx: ActionContext, deviceUuid: string, command: string, payload: Record<string, unknown>) {
  return write(ctx.deps, ctx.actor, async (w) => {
    const device = await findDevice(w, ctx.actor.orgUuid, deviceUuid);
    if (!device) return failed(`device ${deviceUuid} not found`);
    const delivered = device.connectionStatus !== 'RED';
    const uuid = newRuuid();
    const record = {
      uuid,
      orgUuid: device.orgUuid,
      deviceUuid: device.uuid,
      command,
      payload,
      ruleUuid: ctx.rule.uuid,
      firingUuid: ctx.event.firingUuid,
      status: delivered ? 'DELIVERED' : 'DEVICE_OFFLINE',
      createdAtMs: w.nowMs,
    };
    w.change({ entity: DEVICE_COMMAND_ENTITY, entityUuid: uuid, type: 'CREATE', deviceUuid: device.uuid, update: record });
    return delivered ? succeeded(`${command} sent to ${device.uuid}`) : failed(`device ${device.uuid} is offline`);
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
 * The audio, relay, custom and custom-LLM actions: commands to the rule's devices. Secrets (the third-party
 * speaker's password) are never put into a command record.
 */
export const deviceCommandActions: ActionFamily = (ctx) => {
  const a = ctx.action;
  const runs: ActionRun[] = [];
  for (const [i, p] of (a.audioPlaybackActions ?? []).entries()) {
    runs.push(commandRun(ctx, `audioPlaybackActions[${i}]`, p.audioGateways ?? [], 'PLAY_AUDIO', { audioClipUuid: p.audioClipUuid, playCount: p.playCount, loopDurationSec: p.loopDurationSec }));
  }
  const cancel = a.cancelLoopingAudioPlaybackAction;
  if (cancel) runs.push(commandRun(ctx, 'cancelLoopingAudioPlaybackAction', devicesOf([...(cancel.audioDevices ?? []), ...(cancel._audioDevices ?? [])]), 'CANCEL_LOOPING_AUDIO', {}));
  for (const [i, r] of (a.enableDisableAudioRecordActions ?? []).entries()) {
    runs.push(commandRun(ctx, `enableDisableAudioRecordActions[${i}]`, [r.audioDeviceUuid!], 'SET_AUDIO_RECORDING', { enable: r.enable ?? false }));
  }
  const phone = a.connectAudioDeviceToPhoneNumberAction;
  if (phone?.audioDeviceUuid) {
    runs.push(commandRun(ctx, 'connectAudioDeviceToPhoneNumberAction', [phone.audioDeviceUuid], 'CONNECT_PHONE', { phoneNumber: phone.phoneNumber, doorUuid: phone.doorUuid, optionalGreeting: phone.optionalGreeting }));
  }
  const speaker = a.thirdPartyAudioPlaybackAction;
  if (speaker?.proxyDeviceUuid) {
    const { password: _secret, ...shown } = speaker;
    runs.push(commandRun(ctx, 'thirdPartyAudioPlaybackAction', [speaker.proxyDeviceUuid], 'PLAY_THIRD_PARTY_AUDIO', { ...shown, authenticated: Boolean(_secret) }));
  }
  for (const [i, c] of (a.customActions ?? []).entries()) {
    runs.push(commandRun(ctx, `customActions[${i}]`, [ctx.rule.sensorUuid], 'CUSTOM', { path: c.path, headerNames: Object.keys(c.headers ?? {}) }));
  }
  for (const [i, l] of (a.customLLMActions ?? []).entries()) {
    runs.push(commandRun(ctx, `customLLMActions[${i}]`, devicesOf(l.deviceFacetUuids), 'RUN_CUSTOM_LLM_PROMPT', { promptUuid: l.promptUuid }));
  }
  for (const [i, r] of (a.triggerComponentRelayActions ?? []).entries()) {
    const durationMs = r.overrideRelayDurationMs ?? (r.overrideRelayDurationSec ?? 0) * 1000;
    runs.push(commandRun(ctx, `triggerComponentRelayActions[${i}]`, [r.componentUuid ?? r.ownerDeviceUuid!], 'DRIVE_RELAY', { state: r.state ?? 'ACTIVE', outputType: r.outputType ?? 'TRANSIENT', durationMs }));
  }
  return runs;
};
