import { Type } from 'typebox';
import { Field, ResponseOf } from '../../../schemas/common.js';
import { ORG_INTEGRATIONS, ORG_INTEGRATIONS_V2 } from '../schemas.js';
import { PARTNERS, PARTNER_KINDS } from './catalogue.js';
import { settingsSchema } from './fields.js';

/** The organization's integrations listings: the kinds modelled in full and every partner of the table. */
const partners = PARTNER_KINDS.map((kind) => ({ spec: PARTNERS[kind], settings: Field(settingsSchema(PARTNERS[kind].fields)) }));

export const GetOrgIntegrationsResponse = ResponseOf({
  orgIntegrations: Field(Type.Object({ ...ORG_INTEGRATIONS, ...Object.fromEntries(partners.map((p) => [p.spec.listedAs, p.settings])) })),
});
export const GetOrgIntegrationsV2Response = ResponseOf({
  orgIntegrationsV2: Field(Type.Object({ ...ORG_INTEGRATIONS_V2, ...Object.fromEntries(partners.map((p) => [p.spec.integration, p.settings])) })),
});
