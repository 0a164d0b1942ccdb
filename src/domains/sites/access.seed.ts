import type { WriteScope } from '../../bus/write.js';
import { labelDoor } from '../access/doors/door-labels.service.js';
import { insertRule } from '../access/grants/service.js';
import { insertGroup } from '../access/groups/service.js';
import { findDoor } from '../access/service.js';
import type { SiteFile, SiteKind } from './schema.js';
import { doorAccessGrantName } from './validate.js';

type Created = (kind: SiteKind, key: string, uuid: string) => void;
type UuidOf = (kind: SiteKind, key: string) => string;
/** The uuid of an entry the organization already has (the file seeded again), which is kept as it is. */
export type Kept = (kind: SiteKind, key: string) => string | undefined;

/**
 * The access part of a site file, after its doors: door labels, access groups, grants and revocations, and
 * each door's access list as a grant named "<door> access" that names the door and those users at all times
 * (the door's own schedule still applies).
 */
export async function seedAccess(w: WriteScope, site: SiteFile, uuidOf: UuidOf, created: Created, kept: Kept): Promise<void> {
  for (const d of site.doors ?? []) {
    if (d.labels?.length) await labelDoor(w, (await findDoor(w, w.actor.orgUuid, uuidOf('doors', d.name)))!, d.labels);
  }
  for (const g of site.accessGroups ?? []) {
    const existing = kept('accessGroups', g.name.trim().toLowerCase());
    if (existing) {
      created('accessGroups', g.name, existing);
      continue;
    }
    const { group } = await insertGroup(w, {
      name: g.name,
      description: g.description,
      locationUuid: g.location !== undefined ? uuidOf('locations', g.location) : null,
      userUuids: (g.members ?? []).map((u) => uuidOf('users', u)),
    });
    created('accessGroups', g.name, group.uuid);
  }
  const many = (kind: SiteKind, names: string[] | undefined) => (names ?? []).map((n) => uuidOf(kind, n));
  for (const [kind, rules] of [
    ['GRANT', site.accessGrants],
    ['REVOCATION', site.accessRevocations],
  ] as const) {
    const ruleKind = kind === 'GRANT' ? 'accessGrants' : 'accessRevocations';
    for (const r of rules ?? []) {
      if (kept(ruleKind, r.name)) {
        created(ruleKind, r.name, kept(ruleKind, r.name)!);
        continue;
      }
      const rule = await insertRule(w, kind, {
        name: r.name,
        locationUuid: uuidOf('locations', r.location),
        scheduleUuid: r.schedule !== undefined ? uuidOf('schedules', r.schedule) : null,
        userUuids: many('users', r.users),
        groupUuids: many('accessGroups', r.groups),
        accessControlledDoorUuids: many('doors', r.doors),
        accessControlledElevatorLandingUuids: many('elevatorLandings', r.elevatorLandings),
        doorLabelIds: r.doorLabels ?? [],
      });
      created(ruleKind, r.name, rule.uuid);
    }
  }
  for (const d of site.doors ?? []) {
    if (!d.access?.length) continue;
    const name = doorAccessGrantName(d.name);
    const rule =
      kept('accessGrants', name) ??
      (
        await insertRule(w, 'GRANT', {
          name,
          locationUuid: uuidOf('locations', d.location),
          userUuids: many('users', d.access),
          accessControlledDoorUuids: [uuidOf('doors', d.name)],
        })
      ).uuid;
    created('accessGrants', name, rule);
  }
}
