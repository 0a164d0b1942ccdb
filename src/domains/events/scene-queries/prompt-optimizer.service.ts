import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf } from '../../../ids.js';
import { findDevice } from '../../devices/service.js';
import { askPromptOptimizer, type ChatTurn, type PromptAdvice } from './scene-analyzer.js';

export interface OptimizationInput {
  context?: {
    deviceFacetUuid?: string | null;
    timestampMs?: number | null;
    originalPrompt?: string | null;
    originalAnswer?: string | null;
    expectedAnswer?: string | null;
    optionalContext?: string | null;
    region?: unknown;
  } | null;
  history?: ChatTurn[] | null;
  currentMessage?: string | null;
}

/**
 * `optimizePromptChat`: one turn of a chat that improves a scene-query prompt which answered wrongly. The
 * camera the chat is about must be the organization's; the video-analytics system that runs prompts answers.
 */
export async function optimizePromptChat(deps: Pick<Deps, 'store' | 'config' | 'clock'>, ctx: CallerContext, input: OptimizationInput): Promise<PromptAdvice> {
  const context = input.context ?? {};
  if (!context.originalPrompt && !input.currentMessage) throw fail('INVALID_VALUE', 'context.originalPrompt: give the prompt to improve, or a currentMessage');
  let camera: { uuid: string; name: string; timestampMs: number } | null = null;
  if (context.deviceFacetUuid) {
    const uuid = deviceUuidOf(context.deviceFacetUuid);
    const device = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA', 'DOORBELL_CAMERA']) : null;
    if (!device) throw fail('NOT_FOUND', `context.deviceFacetUuid: Camera ${context.deviceFacetUuid}`);
    camera = { uuid: device.uuid, name: device.name, timestampMs: context.timestampMs ?? deps.clock.now() };
  }
  return askPromptOptimizer(deps.config, {
    orgUuid: ctx.orgUuid,
    context: { ...context, deviceFacetUuid: context.deviceFacetUuid ?? null },
    camera,
    history: input.history ?? [],
    message: input.currentMessage ?? '',
  });
}
