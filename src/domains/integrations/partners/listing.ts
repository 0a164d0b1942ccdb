import { Type } from 'typebox';
import { Field, ResponseOf } from '../../../schemas/common.js';
import { ORG_INTEGRATIONS, ORG_INTEGRATIONS_V2 } from '../schemas.js';
import { answerSchemaOf, type AnswerView } from './answers.js';
import { PARTNERS, PARTNER_KINDS, type PartnerSpec } from './catalogue.js';

/** The organization's integrations listings: the kinds modelled in full and the partners each listing has (answers.ts). */
const partnerEntries = (view: AnswerView) =>
  PARTNER_KINDS.flatMap((kind) => {
    const spec: PartnerSpec = PARTNERS[kind];
    const name = view === 'v2' ? spec.integration : spec.listedAs;
    const schema = answerSchemaOf(kind, view);
    return name && schema ? [[name, Field(schema)] as const] : [];
  });

export const GetOrgIntegrationsResponse = ResponseOf({
  orgIntegrations: Field(Type.Object({ ...ORG_INTEGRATIONS, ...Object.fromEntries(partnerEntries('settings')) })),
});
export const GetOrgIntegrationsV2Response = ResponseOf({
  orgIntegrationsV2: Field(Type.Object({ ...ORG_INTEGRATIONS_V2, ...Object.fromEntries(partnerEntries('v2')) })),
});
