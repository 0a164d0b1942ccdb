import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { listDevices, type DeviceRecord } from '../devices/service.js';
import type { DeviceKind } from '../devices/tables.js';
import { getPolicyAlerts } from '../events/alerts/service.js';
import type { ChatStatus } from './schemas.js';

/**
 * Gatehouse's chatbot stand-in: a small deterministic answerer over the organization's own records, never an
 * outside service. It answers a few kinds of question, one clause at a time (a clause ends at `?`, `.`, `;` or a
 * line break): how many devices of a kind there are, which cameras are offline, and how many alerts were raised in
 * a window (all, or a camera's named in the clause, with the latest of them). A clause it cannot read is said so;
 * the status is ANSWERED when every clause was answered, PARTIALLY_ANSWERED when some were, else NO_RESPONSE.
 */
export interface Answer {
  status: ChatStatus;
  response: string;
}

type ReadDeps = Pick<Deps, 'store'>;

/** The words that name a kind of device, and how the answer names it. */
const DEVICE_WORDS: ReadonlyArray<{ pattern: RegExp; kinds: DeviceKind[]; name: string }> = [
  { pattern: /\bdoorbells?\b/, kinds: ['DOORBELL_CAMERA'], name: 'doorbell cameras' },
  { pattern: /\bcameras?\b/, kinds: ['CAMERA'], name: 'cameras' },
  { pattern: /\bdoor ?controllers?\b/, kinds: ['DOOR_CONTROLLER'], name: 'door controllers' },
  { pattern: /\bdoors?\b/, kinds: ['DOOR_SENSOR'], name: 'door sensors' },
  { pattern: /\b(environmental|climate) sensors?\b/, kinds: ['ENVIRONMENTAL_SENSOR'], name: 'environmental sensors' },
  { pattern: /\bbadge ?readers?\b/, kinds: ['BADGE_READER'], name: 'badge readers' },
  { pattern: /\bsensors?\b/, kinds: ['ENVIRONMENTAL_SENSOR', 'DOOR_SENSOR', 'OCCUPANCY_SENSOR'], name: 'sensors' },
  { pattern: /\bdevices?\b/, kinds: [], name: 'devices' },
];

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };
const DAY_MS = UNIT_MS.day!;
/** The most alerts one answer reads. */
const ALERT_CAP = 1000;

/** The window a clause names ("in the last 3 hours", "today", "yesterday"); the last 24 hours when it names none. */
export function windowOf(clause: string, nowMs: number): { fromMs: number; toMs: number; said: string } {
  const last = /\b(?:last|past)\s+(\d+)?\s*(minute|hour|day|week)s?\b/.exec(clause);
  if (last) {
    const n = Number(last[1] ?? 1);
    return { fromMs: nowMs - n * UNIT_MS[last[2]!]!, toMs: nowMs, said: `in the last ${n} ${last[2]}${n === 1 ? '' : 's'}` };
  }
  const midnight = nowMs - (nowMs % DAY_MS);
  if (/\btoday\b/.test(clause)) return { fromMs: midnight, toMs: nowMs, said: 'today (UTC)' };
  if (/\byesterday\b/.test(clause)) return { fromMs: midnight - DAY_MS, toMs: midnight, said: 'yesterday (UTC)' };
  return { fromMs: nowMs - DAY_MS, toMs: nowMs, said: 'in the last 24 hours' };
}

/** The CLI prefixes its question with `[TOOLS]` and a JSON list of tool definitions: the question is what follows. */
export function questionOf(query: string): string {
  if (!query.startsWith('[TOOLS]')) return query;
  const rest = query.slice('[TOOLS]'.length);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && --depth === 0) return rest.slice(i + 1).trim();
  }
  return '';
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const list = (names: string[]) => names.join(', ');

interface Records {
  devices: DeviceRecord[];
}

/** The camera (or doorbell) a clause names, the longest name first so that "Lobby East" wins over "Lobby". */
function cameraNamed(clause: string, devices: DeviceRecord[]): DeviceRecord | undefined {
  return devices
    .filter((d) => (d.deviceType === 'CAMERA' || d.deviceType === 'DOORBELL_CAMERA') && clause.includes(d.name.toLowerCase()))
    .sort((a, b) => b.name.length - a.name.length)[0];
}

async function answerClause(deps: ReadDeps, ctx: CallerContext, clause: string, records: Records, nowMs: number): Promise<string | null> {
  if (/\boffline\b|\bdisconnected\b|\bdown\b/.test(clause) && /\bcameras?\b/.test(clause)) {
    const cameras = records.devices.filter((d) => d.deviceType === 'CAMERA');
    const offline = cameras.filter((c) => c.connectionStatus !== 'GREEN').map((c) => c.name);
    return offline.length === 0 ? `All ${cameras.length} cameras are online.` : `${offline.length} of ${cameras.length} cameras are offline: ${list(offline)}.`;
  }
  if (/\balerts?\b|\bevents?\b/.test(clause)) {
    const window = windowOf(clause, nowMs);
    const camera = cameraNamed(clause, records.devices);
    const alerts = await getPolicyAlerts(deps, ctx, {
      afterTimestampMs: window.fromMs,
      beforeTimestampMs: window.toMs,
      deviceFilter: camera ? [camera.uuid] : null,
      maxResults: ALERT_CAP,
    });
    const where = camera ? ` on ${camera.name}` : '';
    if (alerts.length === 0) return `No alerts were raised${where} ${window.said}.`;
    const latest = alerts
      .slice(0, 3)
      .map((a) => `${iso(a.timestampMs)} ${a.policyAlertTriggers.join('/')}`)
      .join('; ');
    const count = alerts.length >= ALERT_CAP ? `At least ${ALERT_CAP}` : String(alerts.length);
    return `${count} alert${alerts.length === 1 ? ' was' : 's were'} raised${where} ${window.said}; the latest: ${latest}.`;
  }
  if (/\bhow many\b|\bcount\b|\bnumber of\b|\blist\b|\bwhich\b/.test(clause)) {
    const word = DEVICE_WORDS.find((w) => w.pattern.test(clause));
    if (!word) return null;
    const matching = records.devices.filter((d) => word.kinds.length === 0 || word.kinds.includes(d.deviceType));
    const online = matching.filter((d) => d.connectionStatus === 'GREEN').length;
    return `The organization has ${matching.length} ${word.name} (${online} online)${matching.length > 0 && matching.length <= 10 ? `: ${list(matching.map((d) => d.name))}` : ''}.`;
  }
  return null;
}

/** Answers a question from the organization's records at `nowMs`. */
export async function answerQuestion(deps: ReadDeps, ctx: CallerContext, query: string, nowMs: number): Promise<Answer> {
  const clauses = questionOf(query)
    .split(/[?.;\n]+/)
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c.length > 0);
  const records: Records = { devices: await listDevices(deps, ctx.orgUuid) };
  const answered: string[] = [];
  const unanswered: string[] = [];
  for (const clause of clauses) {
    const answer = await answerClause(deps, ctx, clause, records, nowMs);
    if (answer) answered.push(answer);
    else unanswered.push(clause);
  }
  const cannot = unanswered.length
    ? `Gatehouse's chatbot stand-in cannot answer: ${unanswered.map((c) => `"${c}"`).join(', ')} (it answers device counts, offline cameras and alert counts from the organization's records).`
    : '';
  const status: ChatStatus = answered.length === 0 ? 'NO_RESPONSE' : unanswered.length === 0 ? 'ANSWERED' : 'PARTIALLY_ANSWERED';
  return { status, response: [...answered, cannot].filter(Boolean).join(' ') };
}
