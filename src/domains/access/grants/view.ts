import { dbOf, type ReadSource } from '../../../store/reader.js';
import { readAccessVersion } from '../access-version.js';
import { listOrgDoorLabels } from '../doors/door-labels.store.js';
import { listOrgRules } from './store.js';
import type { AccessRefType, AccessRuleKind } from './tables.js';
import { listOrgMemberships } from '../groups/store.js';

/** A grant or revocation as the badge decision reads it: what it names, as sets. */
export interface CompiledRule {
  uuid: string;
  kind: AccessRuleKind;
  name: string;
  locationUuid: string;
  scheduleUuid: string | null;
  /** Names no target: covers every door and landing of its location. */
  locationWide: boolean;
  targets: Record<'DOOR' | 'LANDING' | 'DOOR_LABEL', Set<string>>;
}

/**
 * Who may open what in one organization, as of one access version: each user's groups, the rules by the
 * subject (user or group) they name, and each door's labels. Built in four queries; a badge-in then reads
 * only the version (one indexed row) before using it.
 */
export interface AccessView {
  version: string;
  groupsOfUser: Map<string, string[]>;
  /** Keys `USER:<uuid>` and `GROUP:<uuid>`; each list in name then uuid order. */
  rulesBySubject: Map<string, CompiledRule[]>;
  labelsOfDoor: Map<string, string[]>;
}

const subjectKey = (type: 'USER' | 'GROUP', uuid: string) => `${type}:${uuid}`;

async function buildView(source: ReadSource, orgUuid: string, version: string): Promise<AccessView> {
  const db = dbOf(source);
  const { rules, refs } = await listOrgRules(db, orgUuid);
  const memberships = await listOrgMemberships(db, orgUuid);
  const labels = await listOrgDoorLabels(db, orgUuid);
  const compiled = new Map<string, CompiledRule>();
  for (const r of rules) {
    compiled.set(r.uuid, {
      uuid: r.uuid,
      kind: r.kind,
      name: r.name,
      locationUuid: r.location_uuid,
      scheduleUuid: r.schedule_uuid,
      locationWide: Boolean(Number(r.location_wide)),
      targets: { DOOR: new Set(), LANDING: new Set(), DOOR_LABEL: new Set() },
    });
  }
  const subjects = new Map<string, Set<string>>();
  for (const ref of refs) {
    const rule = compiled.get(ref.rule_uuid);
    if (!rule) continue;
    if (isSubject(ref.ref_type)) {
      const key = subjectKey(ref.ref_type, ref.ref_id);
      subjects.set(key, (subjects.get(key) ?? new Set()).add(rule.uuid));
    } else rule.targets[ref.ref_type].add(ref.ref_id);
  }
  // Rules come sorted by name then uuid: keep that order in every list.
  const order = new Map(rules.map((r, i) => [r.uuid, i]));
  const rulesBySubject = new Map<string, CompiledRule[]>();
  for (const [key, uuids] of subjects) {
    rulesBySubject.set(
      key,
      [...uuids].sort((a, b) => order.get(a)! - order.get(b)!).map((u) => compiled.get(u)!),
    );
  }
  const groupsOfUser = new Map<string, string[]>();
  for (const m of memberships) groupsOfUser.set(m.user_uuid, [...(groupsOfUser.get(m.user_uuid) ?? []), m.group_uuid]);
  const labelsOfDoor = new Map<string, string[]>();
  for (const l of labels) labelsOfDoor.set(l.door_uuid, [...(labelsOfDoor.get(l.door_uuid) ?? []), l.label]);
  return { version, groupsOfUser, rulesBySubject, labelsOfDoor };
}

const isSubject = (type: AccessRefType): type is 'USER' | 'GROUP' => type === 'USER' || type === 'GROUP';

/** How many organizations' views an instance keeps; the least recently used goes first. */
const MAX_VIEWS = 500;

/**
 * The views this process holds, by organization. Safe to share between instances of a process and stores:
 * a view is used only while the store it is read from holds its version, a random token per change.
 */
const views = new Map<string, AccessView>();

/**
 * The organization's access view as of the store's current version (read first, so that a view built while a
 * change commits is tagged with the older version and rebuilt at the next badge-in).
 */
export async function accessView(source: ReadSource, orgUuid: string): Promise<AccessView> {
  const version = await readAccessVersion(source, orgUuid);
  const held = views.get(orgUuid);
  if (held && held.version === version) {
    views.delete(orgUuid);
    views.set(orgUuid, held);
    return held;
  }
  const view = await buildView(source, orgUuid, version);
  views.delete(orgUuid);
  views.set(orgUuid, view);
  if (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
  return view;
}

/** The rules that name the user or one of the user's groups, each once, in name then uuid order per subject. */
export function rulesForUser(view: AccessView, userUuid: string): CompiledRule[] {
  const seen = new Set<string>();
  const found: CompiledRule[] = [];
  for (const key of [subjectKey('USER', userUuid), ...(view.groupsOfUser.get(userUuid) ?? []).map((g) => subjectKey('GROUP', g))]) {
    for (const rule of view.rulesBySubject.get(key) ?? []) {
      if (seen.has(rule.uuid)) continue;
      seen.add(rule.uuid);
      found.push(rule);
    }
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
}
