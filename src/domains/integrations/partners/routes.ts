import { Type, type TSchema } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse, Field, Own, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { enabling, IntegrationUpdateResponse, BaseIntegrationRequest } from '../schemas.js';
import { PARTNERS, type PartnerKind, type PartnerSpec, type SettingsOp } from './catalogue.js';
import { deletePartnerSettings, readPartnerSettings, savePartnerSettings } from './engine.js';
import { fieldProperties, settingsSchema } from './fields.js';
import { answerSchemaOf, type AnswerView } from './answers.js';
import { behaviourRoutes } from './behaviours.routes.js';

const tags = ['Integrations'];

/** The spec's fields of every integration update, which the catalogue's answer of an update with a webhook token lacks. */
const why = "the spec's integration updates carry it";
const ownUpdateFields = {
  authError: Field(Own(Type.Boolean(), why)),
  failedGuids: Field(Own(Type.Array(Type.String()), why)),
  misconfiguredDoors: Field(Own(Type.Array(Type.String()), why)),
};

/** The schemas of one partner's operations, built once from its table entry. */
function schemasOf(kind: PartnerKind, spec: PartnerSpec) {
  const settings = settingsSchema(spec.fields);
  return {
    /** The body of an update that takes the settings in `body` (or, null, at the top), with the op's extra fields. */
    updateBody: (op: SettingsOp): TSchema =>
      op.body === null || op.body === undefined
        ? Type.Object({ ...enabling, ...fieldProperties(spec.fields), ...fieldProperties(op.extra ?? {}) })
        : Type.Object({ [op.body]: Field(settings), ...fieldProperties(op.extra ?? {}) }),
    updateResponse: spec.generatesWebhookToken
      ? ResponseOf({ ...ownUpdateFields, webhookToken: Field(Ruuid({ description: 'names the inbound webhook of the partner' })) })
      : IntegrationUpdateResponse,
    getResponse: (answer: string) => {
      const schema = answerSchemaOf(kind, viewOf(answer));
      if (!schema) throw new Error(`${kind}: a get answering ${answer} needs answers.${viewOf(answer)} in catalogue.ts`);
      return ResponseOf({ [answer === 'v2' ? 'orgIntegrationV2' : answer]: Field(schema) });
    },
  };
}

/** A get's answer `v2` is the V2 view; a named answer is the settings object. */
const viewOf = (answer: string): AnswerView => (answer === 'v2' ? 'v2' : 'settings');

/** The catalogue's fields of an operation's path: its operationId and, for a deprecated name, its successor. */
function naming(op: SettingsOp) {
  return {
    path: op.path,
    operationId: op.operationId ?? op.path.split('/').at(-1)!,
    ...(op.successor ? { deprecated: { successor: op.successor } } : {}),
  };
}

/** Every get / update / delete of every partner's settings, from the table of catalogue.ts; and the partners' behaviours. */
export function integrationPartnerRoutes(app: ApiApp, deps: Deps): void {
  for (const [kind, spec] of Object.entries(PARTNERS) as Array<[PartnerKind, PartnerSpec]>) {
    const schemas = schemasOf(kind, spec);
    for (const op of spec.ops) {
      if (op.verb === 'update') {
        operation(
          app,
          {
            ...naming(op),
            summary: `Update the ${spec.title} integration (whole settings; secrets answered masked)`,
            tags,
            body: schemas.updateBody(op),
            response: schemas.updateResponse,
          },
          async (input, ctx) => {
            const body = input as Record<string, unknown>;
            const settings = op.body ? ((body[op.body] ?? {}) as Record<string, unknown>) : body;
            return savePartnerSettings(deps, ctx, kind, settings, op.body ? [] : Object.keys(op.extra ?? {}));
          },
        );
      } else if (op.verb === 'get') {
        const answer = op.answer ?? 'v2';
        operation(
          app,
          {
            ...naming(op),
            summary: `Get the ${spec.title} integration (secrets masked)`,
            tags,
            body: BaseIntegrationRequest,
            response: schemas.getResponse(answer),
          },
          // No settings saved: the field is left out (the catalogue's record is not nullable).
          async (_input, ctx) => {
            const settings = await readPartnerSettings(deps, ctx, kind, viewOf(answer));
            return settings === null ? {} : { [answer === 'v2' ? 'orgIntegrationV2' : answer]: settings };
          },
        );
      } else {
        operation(
          app,
          { ...naming(op), summary: `Delete the ${spec.title} integration`, tags, body: BaseIntegrationRequest, response: EnvelopeResponse },
          async (_input, ctx) => deletePartnerSettings(deps, ctx, kind).then(() => ({})),
        );
      }
    }
  }
  behaviourRoutes(app, deps);
}
