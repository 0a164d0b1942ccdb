import type { CallerContext } from '../../context.js';
import { keepCameras } from './org-records.js';
import { SMART_SENSOR_ALERTS, type SmartSensorSettings } from './schemas.js';
import { saveIntegration, type IntegrationDeps, type UpdateResult } from './settings.js';

export const DEFAULT_CLIP_DURATION_MS = 30_000;

/** Saves the smart-sensor integration; mapped cameras that are not the organization's are answered in failedGuids. */
export async function updateSmartSensorIntegration(deps: IntegrationDeps, ctx: CallerContext, input: SmartSensorSettings): Promise<UpdateResult> {
  return saveIntegration(deps, ctx, 'SMART_SENSOR', input, async ({ failedGuids }) => {
    const sensorToCamerasMap: Record<string, string[]> = {};
    for (const [sensor, cameras] of Object.entries(input.sensorToCamerasMap ?? {})) {
      sensorToCamerasMap[sensor] = await keepCameras(deps, ctx.orgUuid, cameras, failedGuids);
    }
    const alerts = Object.fromEntries(SMART_SENSOR_ALERTS.map((a) => [a, input[a] ?? false]));
    return {
      enabled: input.enabled ?? false,
      settings: {
        ...alerts,
        saveClips: input.saveClips ?? false,
        savedClipDurationMs: input.savedClipDurationMs ?? DEFAULT_CLIP_DURATION_MS,
        triggerNotification: input.triggerNotification ?? false,
        sensorName: input.sensorName ?? null,
        sensorToCamerasMap,
        url: input.url ?? null,
      },
    };
  });
}
