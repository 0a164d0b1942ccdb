import type { TestServer } from '../../helpers/server.js';
import { systemActor } from '../../../src/deps.js';
import { newRuuid } from '../../../src/ids.js';
import { write } from '../../../src/bus/write.js';
import { rawChange } from '../../helpers/changes.js';

/**
 * Announces a new policy alert the way the events domain does (a POLICY_ALERT change, type CREATE): the chat
 * relay listens to exactly that, whatever raised the alert.
 */
export async function announcePolicyAlert(server: TestServer, orgUuid: string, alert: { deviceUuid: string; locationUuid?: string; triggers?: string[] }) {
  const uuid = newRuuid();
  const update = {
    uuid,
    orgUuid,
    deviceUuid: alert.deviceUuid,
    locationUuid: alert.locationUuid ?? null,
    policyAlertTriggers: alert.triggers ?? ['MOTION_HUMAN'],
    timestampMs: Date.now(),
  };
  await write(server.gatehouse.deps, systemActor(orgUuid, 'test.alert'), async (w) => {
    w.change(rawChange({ entity: 'POLICY_ALERT', entityUuid: uuid, deviceUuid: alert.deviceUuid, type: 'CREATE', update }));
  });
  return update;
}

/** Outbox settings that make retries quick enough for a test. */
export const FAST_OUTBOX = {
  GATEHOUSE_OUTBOX_POLL_MS: '50',
  GATEHOUSE_OUTBOX_BASE_DELAY_MS: '50',
  GATEHOUSE_OUTBOX_MAX_DELAY_MS: '200',
  GATEHOUSE_OUTBOX_TIMEOUT_MS: '2000',
};
