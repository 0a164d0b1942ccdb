import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { ActivityEnum } from '../../../schemas/activities.js';
import { RuleAction, RuleFilters } from '../schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** A doorbell camera's rule (the catalogue's ExternalDoorbellCameraComponentRuleType). */
export const DoorbellRule = Type.Object({
  ruleUuid: Field(NotRef('handler', Ruuid())),
  ruleName: Field(Type.String({ maxLength: 200 })),
  doorbellCameraUuid: Field(RefUuid('device', { notFound: 'Doorbell camera' })),
  doorbellCameraComponentUuid: Field(RefUuid('component', "the camera's doorbell button, a component of the organization")),
  triggerActivity: Field(ActivityEnum),
  ruleFilters: Field(RuleFilters),
  action: Field(RuleAction),
});
export const CreateRuleForDoorbellCameraRequest = Type.Object({ rule: DoorbellRule });
export const CreateRuleForDoorbellCameraResponse = ResponseOf({ ruleUuid: Field(Ruuid()) });
export const DeleteRuleForDoorbellCameraRequest = Type.Object({
  doorbellCameraUuid: RefUuid('device', { notFound: 'Doorbell camera' }),
  ruleUuid: NotRef('handler', Ruuid()),
});
export const GetRulesForDoorbellCameraRequest = Type.Object({ doorbellCameraUuid: RefUuid('device', { notFound: 'Doorbell camera' }) });
export const GetRulesForDoorbellCameraResponse = ResponseOf({ rules: Field(Type.Array(DoorbellRule)) });
export const GetDoorbellCameraRulesForOrgRequest = EmptyRequest;
export const GetDoorbellCameraRulesForOrgResponse = ResponseOf({ doorbellCameraUuidToRulesMap: Field(Type.Record(Type.String(), Type.Array(DoorbellRule))) });
