import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { RULE_FINDERS, findRules, type FinderInput } from './finders.js';
import { finderRequest, ruleSchemas } from './schemas.js';
import * as rules from './service.js';
import type { AccessRuleKind } from './tables.js';

const tags = ['AccessControl'];

/** The catalogue's names of each kind's operations and fields. */
const KINDS = [
  {
    kind: 'GRANT',
    noun: 'grant',
    create: 'createAccessGrant',
    update: 'updateAccessGrant',
    remove: 'deleteLocationAccessGrant',
    get: 'getLocationAccessGrant',
    findPrefix: 'findLocationAccessGrantsBy',
    names: { one: 'accessGrant', many: 'accessGrants', uuid: 'accessGrantUuid' },
  },
  {
    kind: 'REVOCATION',
    noun: 'revocation',
    create: 'createAccessRevocation',
    update: 'updateAccessRevocation',
    remove: 'deleteLocationAccessRevocation',
    get: 'getLocationAccessRevocation',
    findPrefix: 'findLocationAccessRevocationsBy',
    names: { one: 'accessRevocation', many: 'accessRevocations', uuid: 'accessRevocationUuid' },
  },
] as const satisfies ReadonlyArray<{ kind: AccessRuleKind } & Record<string, unknown>>;

/**
 * Location access grants and revocations: create, update (replaces the rule), delete, get and the finder
 * family, registered once per kind from the table above (the two kinds share every shape).
 */
export function accessGrantRoutes(app: ApiApp, deps: Deps): void {
  for (const k of KINDS) {
    const s = ruleSchemas(k.names);
    const path = (operationId: string) => `/api/accesscontrol/${operationId}`;
    const one = (record: rules.AccessRuleRecord) => ({ [k.names.one]: record });
    const ruleOf = (input: Record<string, unknown>) => input[k.names.one] as rules.AccessRuleInput;
    const uuidOf = (input: Record<string, unknown>) => input[k.names.uuid] as string;
    operation(
      app,
      { path: path(k.create), operationId: k.create, summary: `Create a location access ${k.noun}`, tags, body: s.write, response: s.written },
      async (input, ctx) => one(await rules.createRule(deps, ctx, k.kind, ruleOf(input))),
    );
    operation(
      app,
      {
        path: path(k.update),
        operationId: k.update,
        summary: `Replace a location access ${k.noun}`,
        description: 'The lists and the schedule are replaced by what is sent (left out: none); name and locationUuid keep their values when left out.',
        tags,
        body: s.write,
        response: s.written,
      },
      async (input, ctx) => one(await rules.updateRule(deps, ctx, k.kind, ruleOf(input))),
    );
    operation(
      app,
      { path: path(k.remove), operationId: k.remove, summary: `Delete a location access ${k.noun}`, tags, body: s.byUuid, response: s.deleted },
      async (input, ctx) => (await rules.deleteRule(deps, ctx, k.kind, uuidOf(input)), {}),
    );
    operation(
      app,
      { path: path(k.get), operationId: k.get, summary: `Get a location access ${k.noun}`, tags, body: s.byUuid, response: s.written },
      async (input, ctx) => one(await rules.getRule(deps, ctx, k.kind, uuidOf(input))),
    );
    for (const finder of RULE_FINDERS.filter((f) => f.kinds.includes(k.kind))) {
      const operationId = `${k.findPrefix}${finder.by}`;
      operation(
        app,
        {
          path: path(operationId),
          operationId,
          summary: `Find the location access ${k.noun}s ${finder.summary}`,
          tags,
          body: finderRequest(finder),
          response: s.list,
        },
        async (input, ctx) => ({ [k.names.many]: await findRules(deps, ctx, k.kind, finder, input as FinderInput) }),
      );
    }
  }
}
