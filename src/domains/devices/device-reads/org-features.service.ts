import type { Deps } from '../../../deps.js';
import { featureMapOf } from './features.service.js';
import { listDevices } from '../service.js';
import { listArchivingConfigs } from '../cloud-archiving/service.js';
import type { Feature } from './schemas.js';

/** Which camera feature (devices/features.service.ts) makes each analytics feature of the organization available. */
const FROM_CAMERAS: Partial<Record<Feature, readonly string[]>> = {
  faceRecognition: ['faceRecognition'],
  faceCounting: ['faceRecognition'],
  faceCountingNonUnique: ['faceRecognition'],
  licensePlateRecognition: ['vehicleDetection'],
  vehicleCounting: ['vehicleDetection'],
  peopleCounting: ['lineCrossing', 'occupancyCounting'],
};

/**
 * The organization's features, from what it has: an analytics feature is on when one of its cameras has the
 * camera feature it rests on turned on; cloud archiving when a cloud archiving config exists; the rules engine
 * always (Gatehouse runs rules). Behaviour, engagement and PPE detection Gatehouse never does: off.
 */
export async function orgFeatures(deps: Pick<Deps, 'store'>, orgUuid: string): Promise<Record<Feature, boolean>> {
  const cameras = await listDevices(deps, orgUuid, ['CAMERA', 'DOORBELL_CAMERA']);
  const on = new Set(cameras.flatMap((c) => Object.entries(featureMapOf(c)).flatMap(([f, enabled]) => (enabled ? [f] : []))));
  const fromCameras = (f: Feature) => (FROM_CAMERAS[f] ?? []).some((c) => on.has(c));
  return {
    behaviorDetection: false,
    engagementCounting: false,
    ppeDetection: false,
    rulesEngine: true,
    cloudArchiving: (await listArchivingConfigs(deps, orgUuid)).length > 0,
    faceRecognition: fromCameras('faceRecognition'),
    faceCounting: fromCameras('faceCounting'),
    faceCountingNonUnique: fromCameras('faceCountingNonUnique'),
    licensePlateRecognition: fromCameras('licensePlateRecognition'),
    vehicleCounting: fromCameras('vehicleCounting'),
    peopleCounting: fromCameras('peopleCounting'),
  };
}
