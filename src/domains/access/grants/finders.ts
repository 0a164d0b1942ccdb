import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { ReadSource } from '../../../store/reader.js';
import { findDevice } from '../../devices/service.js';
import { checkedLabel, labelsOfDoor } from '../doors/door-labels.service.js';
import { rulesWithRefs, type AccessRuleRecord } from './service.js';
import * as store from './store.js';
import type { AccessRuleKind } from './tables.js';
import { groupUuidsOfUser } from '../groups/service.js';
import { findDoor } from '../service.js';

/** What a finder is given: the one or two ids its name says. */
export type FinderInput = Partial<Record<FinderField, string>>;
export type FinderField = 'locationUuid' | 'userUuid' | 'groupUuid' | 'accessControlledDoorUuid' | 'accessControlledElevatorLandingUuid' | 'doorLabelId';

export interface RuleFinder {
  /** The operation's name after `findLocationAccessGrantsBy` / `findLocationAccessRevocationsBy`. */
  by: string;
  /** The request's fields (each required). */
  fields: readonly FinderField[];
  /** Which kinds the catalogue has this finder for. */
  kinds: readonly AccessRuleKind[];
  summary: string;
  /** Says which rules to answer (the edge resolved the ids against the organization: another organization's are unknown ones). */
  query(source: ReadSource, orgUuid: string, input: FinderInput): Promise<store.RuleQuery>;
}

const BOTH: readonly AccessRuleKind[] = ['GRANT', 'REVOCATION'];

/** A user named directly or through one of their groups (the edge resolved the user: src/records/references.ts). */
async function subjectsOf(source: ReadSource, orgUuid: string, userUuid: string): Promise<store.RefMatch[]> {
  return [
    { type: 'USER', ids: [userUuid] },
    { type: 'GROUP', ids: await groupUuidsOfUser(source, orgUuid, userUuid) },
  ];
}

/**
 * The finder family, one entry per variant. By user: the rules that name the user or one of the user's
 * groups. By door or landing: the rules that cover it (name it, name one of the door's labels, or name no
 * target at its location). By group and by label: the rules that name them.
 */
export const RULE_FINDERS: readonly RuleFinder[] = [
  { by: 'Org', fields: [], kinds: BOTH, summary: 'of the organization', query: async () => ({}) },
  {
    by: 'Location',
    fields: ['locationUuid'],
    kinds: ['GRANT'],
    summary: 'at a location',
    query: async (_source, _org, input) => ({ locationUuid: input.locationUuid! }),
  },
  {
    by: 'LocationAndUser',
    fields: ['locationUuid', 'userUuid'],
    kinds: ['GRANT'],
    summary: "at a location for a user (directly or through the user's groups)",
    query: async (source, org, input) => ({
      locationUuid: input.locationUuid!,
      names: await subjectsOf(source, org, input.userUuid!),
    }),
  },
  {
    by: 'User',
    fields: ['userUuid'],
    kinds: BOTH,
    summary: "for a user (directly or through the user's groups)",
    query: async (source, org, input) => ({ names: await subjectsOf(source, org, input.userUuid!) }),
  },
  {
    by: 'Group',
    fields: ['groupUuid'],
    kinds: BOTH,
    summary: 'naming a group',
    query: async (_source, _org, input) => ({ names: [{ type: 'GROUP', ids: [input.groupUuid!] }] }),
  },
  {
    by: 'AccessControlledDoor',
    fields: ['accessControlledDoorUuid'],
    kinds: BOTH,
    summary: "covering a door (naming it or one of its labels, or location-wide at the door's location)",
    query: async (source, org, input) => {
      const door = await findDoor(source, org, input.accessControlledDoorUuid!);
      if (!door) throw fail('NOT_FOUND', 'Door');
      const labels = await labelsOfDoor(source, door.uuid);
      const refs: store.RefMatch[] = [
        { type: 'DOOR', ids: [door.uuid] },
        { type: 'DOOR_LABEL', ids: labels },
      ];
      return { covers: { locationUuid: door.locationUuid, refs } };
    },
  },
  {
    by: 'AccessControlledElevatorLanding',
    fields: ['accessControlledElevatorLandingUuid'],
    kinds: BOTH,
    summary: "covering an elevator landing (naming it, or location-wide at the landing's location)",
    query: async (source, org, input) => {
      const landing = await findDevice(source, org, input.accessControlledElevatorLandingUuid!, ['ELEVATOR_LANDING']);
      if (!landing) throw fail('NOT_FOUND', 'Access controlled elevator landing');
      if (!landing.locationUuid) return { names: [{ type: 'LANDING', ids: [landing.uuid] }] };
      return { covers: { locationUuid: landing.locationUuid, refs: [{ type: 'LANDING', ids: [landing.uuid] }] } };
    },
  },
  {
    by: 'DoorLabel',
    fields: ['doorLabelId'],
    kinds: BOTH,
    summary: 'naming a door label',
    query: async (_source, _org, input) => ({ names: [{ type: 'DOOR_LABEL', ids: [checkedLabel(input.doorLabelId!, 'doorLabelId')] }] }),
  },
];

/** Runs a finder: the rules of the kind it selects, by name then uuid, with what each names. */
export async function findRules(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  kind: AccessRuleKind,
  finder: RuleFinder,
  input: FinderInput,
): Promise<AccessRuleRecord[]> {
  const query = await finder.query(deps, ctx.orgUuid, input);
  return rulesWithRefs(deps, await store.listRules(deps.store.db, ctx.orgUuid, kind, query));
}
