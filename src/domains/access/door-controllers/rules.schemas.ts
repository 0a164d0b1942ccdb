import { Type, type Static } from 'typebox';
import { Alias, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/**
 * A door controller's own rules (the platform's newer public spec; its MCP passes its tool's arguments through).
 * Gatehouse keeps the name, whether it is enabled and its type, and the rest of the rule as it was given.
 */
export const DoorControllerRule = Type.Object({
  uuid: Field(Ruuid()),
  deviceUuid: Field(Ruuid({ description: 'the door controller' })),
  name: Type.String(),
  enabled: Type.Boolean(),
  ruleType: Type.String(),
  settings: Type.Record(Type.String(), Type.Unknown(), { description: "the rule's other fields, as given" }),
  createdAtMillis: Field(Type.Integer()),
  updatedAtMillis: Field(Type.Integer()),
});
export type DoorControllerRuleRecord = Static<typeof DoorControllerRule>;

const RuleInput = Type.Object(
  {
    uuid: Field(NotRef('subject', Ruuid())),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    enabled: Field(Type.Boolean({ description: 'default true' })),
    ruleType: Field(Type.String({ minLength: 1, maxLength: 64, description: 'default CUSTOM' })),
    settings: Field(Type.Record(Type.String(), Type.Unknown())),
  },
  { description: 'other fields are kept in settings' },
);
export type RuleInput = Static<typeof RuleInput> & Record<string, unknown>;

const Controller = NotRef('subject', Alias(Ruuid({ description: 'the door controller' }), ['deviceUuid']));
export const CreateDoorControllerRuleRequest = Type.Object({ doorControllerUuid: Controller, rule: RuleInput });
export const UpdateDoorControllerRuleRequest = Type.Object({
  doorControllerUuid: Controller,
  rule: Type.Object({ ...RuleInput.properties, uuid: NotRef('subject', Ruuid()) }),
});
export const DoorControllerRuleRequest = Type.Object({ doorControllerUuid: Controller, ruleUuid: NotRef('handler', Ruuid()) });
export const GetDoorControllerRulesRequest = Type.Object({ doorControllerUuid: Controller });
export const DoorControllerRuleResponse = ResponseOf({ rule: Field(DoorControllerRule) });
export const DoorControllerRulesResponse = ResponseOf({ rules: Field(Type.Array(DoorControllerRule)) });
