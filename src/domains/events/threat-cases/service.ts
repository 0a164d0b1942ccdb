import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { monitoringEnabled } from '../../devices/monitoring/service.js';
import { findLocation, monitoringPinMatches } from '../../devices/service.js';
import type { PolicyAlertRecord } from '../alerts/schemas.js';
import { THREAT_CASE_PAGE, type GetThreatCasesInput, type ThreatCaseRecord, type ThreatCaseStatus } from './schemas.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

const threatCases = orgRecords({ entity: 'THREAT_CASE', label: 'Threat case', ownerOf: (c) => c.locationUuid });

/** The states a case is still open in: the location's people may cancel, dismiss or escalate it. */
const OPEN: readonly ThreatCaseStatus[] = ['INITIATED', 'REQUESTED', 'FOLLOW_ON', 'ESCALATED'];

/** Opens a threat case for an alert at a location whose alert monitoring is on, in the alert's write. */
export async function openThreatCase(w: WriteScope, alert: PolicyAlertRecord): Promise<void> {
  if (!alert.locationUuid || !(await monitoringEnabled(w, alert.orgUuid, alert.locationUuid))) return;
  const location = (await findLocation(w, alert.orgUuid, alert.locationUuid))!;
  await threatCases.insert(w, {
    orgUuid: alert.orgUuid,
    locationUuid: location.uuid,
    locationName: location.name,
    deviceUuid: alert.deviceUuid,
    policyAlertUuid: alert.uuid,
    policyAlertUuids: [alert.uuid],
    status: 'INITIATED',
    createdAtMillis: w.nowMs,
    submissionTimestampMs: alert.timestampMs,
    deleted: false,
    timelineEventList: [{ type: 'ALERT', timestampSec: Math.floor(alert.timestampMs / 1000), alertUuid: alert.uuid, message: alert.textDescription ?? null }],
  });
}

export function getThreatCase(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<ThreatCaseRecord> {
  return threatCases.get(deps, ctx.orgUuid, uuid);
}

const keyOf = (c: ThreatCaseRecord) => `${c.createdAtMillis}:${c.uuid}`;

/** `getAlertMonitoringThreatCases`: newest first, narrowed by the filters, a page at a time (`lastEvaluatedKey`). */
export async function getThreatCases(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetThreatCasesInput,
): Promise<{ threatCases: ThreatCaseRecord[]; lastEvaluatedKey: string | null }> {
  const after = input.lastEvaluatedKey ? /^(\d+):(.+)$/.exec(input.lastEvaluatedKey) : null;
  if (input.lastEvaluatedKey && !after) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
  const wanted = <T>(list: readonly T[] | null | undefined, value: T) => !list?.length || list.includes(value);
  const matching = (await threatCases.list(deps, ctx.orgUuid))
    .filter(
      (c) =>
        wanted(input.statusFilter, c.status) &&
        wanted(input.locationFilter, c.locationUuid) &&
        wanted(input.deviceFilter, c.deviceUuid) &&
        (input.afterTimestampMs == null || c.createdAtMillis >= input.afterTimestampMs) &&
        (input.beforeTimestampMs == null || c.createdAtMillis < input.beforeTimestampMs),
    )
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (b.uuid < a.uuid ? -1 : 1));
  const start = after ? matching.findIndex((c) => c.createdAtMillis < Number(after[1]) || (c.createdAtMillis === Number(after[1]) && c.uuid < after[2]!)) : 0;
  const size = input.maxPageSize ?? input.maxResults ?? THREAT_CASE_PAGE.default;
  const page = start < 0 ? [] : matching.slice(start, start + size);
  const more = start >= 0 && start + size < matching.length;
  return { threatCases: page, lastEvaluatedKey: more ? keyOf(page[page.length - 1]!) : null };
}

/** Moves an open case to `status`, with the caller on its timeline; cancel and dismiss need the location's pin. */
async function settle(deps: WriteDeps, ctx: CallerContext, uuid: string, status: ThreatCaseStatus, pin: string | null): Promise<void> {
  await write(deps, ctx, async (w) => {
    const threatCase = await threatCases.get(w, ctx.orgUuid, uuid);
    if (pin !== null && !(await monitoringPinMatches(w, ctx.orgUuid, threatCase.locationUuid, pin)))
      throw fail('NOT_ALLOWED', "pin: does not match the location's monitoring pin");
    if (!OPEN.includes(threatCase.status) || (status === 'ESCALATED' && threatCase.status === 'ESCALATED'))
      throw fail('NOT_ALLOWED', `Threat case ${uuid} is ${threatCase.status}`);
    const event = { type: 'USER' as const, timestampSec: Math.floor(w.nowMs / 1000), userUuid: ctx.userUuid, message: status };
    await threatCases.put(w, uuid, { status, timelineEventList: [...threatCase.timelineEventList, event] });
  });
}

export const cancelThreatCase = (deps: WriteDeps, ctx: CallerContext, input: { uuid: string; pin: string }) =>
  settle(deps, ctx, input.uuid, 'CANCELLED', input.pin);
export const dismissThreatCase = (deps: WriteDeps, ctx: CallerContext, input: { uuid: string; pin: string }) =>
  settle(deps, ctx, input.uuid, 'DISMISSED', input.pin);
export const escalateThreatCase = (deps: WriteDeps, ctx: CallerContext, input: { uuid: string }) => settle(deps, ctx, input.uuid, 'ESCALATED', null);

/** Deletes the cases (all of them, or none when one is unknown). */
export async function deleteThreatCases(deps: WriteDeps, ctx: CallerContext, uuids: readonly string[]): Promise<void> {
  await write(deps, ctx, async (w) => {
    for (const uuid of new Set(uuids)) await threatCases.delete(w, uuid);
  });
}

/** Deletes every case of the organization in a status. */
export async function deleteThreatCasesByStatus(deps: WriteDeps, ctx: CallerContext, status: ThreatCaseStatus): Promise<void> {
  await write(deps, ctx, async (w) => {
    for (const c of await threatCases.list(w, ctx.orgUuid)) if (c.status === status) await threatCases.delete(w, c.uuid);
  });
}
