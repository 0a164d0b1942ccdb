import type { Deps } from '../../src/deps.js';
import { waitFor } from './wait.js';

/**
 * Waits until the organization's outbox is idle: no delivery waiting for an attempt or in flight. Once it is,
 * nothing more goes out for what was enqueued, so a test can assert "nothing more arrives" without a fixed sleep.
 */
export async function outboxIdle(deps: Pick<Deps, 'store'>, orgUuid: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(
    'the outbox to be idle',
    async () => {
      const busy = await deps.store.db
        .selectFrom('outbox_deliveries')
        .select('id')
        .where('org_uuid', '=', orgUuid)
        .where('status', 'in', ['PENDING', 'IN_FLIGHT'])
        .limit(1)
        .execute();
      return busy.length === 0;
    },
    timeoutMs,
  );
}
