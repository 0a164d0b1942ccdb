import { Type, type TSchema } from 'typebox';
import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { Field, Ruuid } from '../../../schemas/common.js';
import { keepCameras } from '../org-records.js';
import { findIntegration, openSecret, secretFieldsOf, type IntegrationDeps } from '../settings.js';
import { callPartner, refusedCredentials, titleOf, type AdapterKind, type PartnerRequest } from './adapter.js';
import { deletePartnerSettings, patchPartnerSettings } from './engine.js';
import { PARTNERS, type PartnerKind } from './catalogue.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/*
 * What the platform lets a caller do with a partner beyond its settings: list its doors, readers, panels,
 * places, consoles, facilities, lockdown plans, scenarios or models; unlock one of its doors; trigger or revert
 * a lockdown; test a connection. One line each in BEHAVIOURS, run by one runner through the adapter (adapter.ts):
 * the credentials are the saved settings' (secrets opened), overridden by those the request sends.
 */

const Str = () => Type.String({ maxLength: 2000 });
const Id = () => Type.String({ maxLength: 200 });
export const DoorType = Type.Object({ id: Field(Type.Integer()), name: Field(Type.String()) });
const NamedType = Type.Object({ id: Field(Type.String()), name: Field(Type.String()) });

export interface Behaviour {
  path: string;
  operationId?: string;
  successor?: string;
  kind: AdapterKind;
  summary: string;
  /** The request's own fields (credentials the caller sends instead of the saved ones, ids of the partner). */
  body: Record<string, TSchema>;
  /** The answer's fields beside the envelope (and authError). */
  response: Record<string, TSchema>;
  /**
   * The partner call the request makes, from the request, the saved settings and the caller. Several calls: each
   * one the partner fails answers `undefined` in the list given to `answer` (a report over many restaurants).
   */
  call: (input: Rec, saved: Rec, ctx: CallerContext) => PartnerRequest | PartnerRequest[];
  /** The answer, from the partner's JSON (a list of them for several calls). */
  answer?: (json: unknown, input: Rec, saved: Rec) => Record<string, unknown>;
  /** What the call leaves in the partner's saved settings (a bot installed, a token refreshed); 'delete': they go. */
  keep?: (json: unknown, input: Rec, saved: Rec, ctx: CallerContext) => Rec | 'delete';
}

/** The partner's records in its answer: a JSON array, or one under `data` (as OpenAI-style APIs answer). */
export const list = (value: unknown): Rec[] => (Array.isArray(value) ? (value as Rec[]) : []);
export const items = (json: unknown): Rec[] => (Array.isArray(json) ? list(json) : list((json as Rec | null)?.data));
export const strings = (value: unknown) => list(value).map(String);
export type Rec = Record<string, unknown>;
export const str = (v: unknown) => (v === undefined || v === null ? null : String(v));
const int = (v: unknown) => (Number.isInteger(Number(v)) && v !== null && v !== '' ? Number(v) : null);
const door = (d: Rec) => ({ id: int(d.id), name: str(d.name) });
const named = (d: Rec) => ({ id: str(d.id), name: str(d.name) });
/** A URL part from a request value; a string that is not well-formed UTF-16 (a lone surrogate) is refused, not a 500. */
export const seg = (v: unknown) => {
  try {
    return encodeURIComponent(String(v ?? ''));
  } catch {
    throw fail('INVALID_VALUE', 'an identifier in the request is not a valid string');
  }
};

const P = '/api/integrations';
const ac = (name: string) => `${P}/accessControl/${name}`;
const get = (path: string) => () => ({ method: 'GET' as const, path });
const post = (path: (i: Rec) => string) => (i: Rec) => ({ method: 'POST' as const, path: path(i) });

const unlockBody = (doorId: TSchema) => ({
  cameraUuid: Field(NotRef('handler', Ruuid({ description: "a camera of the organization at the door (another organization's is refused)" }))),
  doorId: Field(NotRef('external', doorId)),
});
const doors = { doors: Field(Type.Array(DoorType)) };
const listDoors = (json: unknown) => ({ doors: items(json).map(door) });

/** A door unlock of a partner: `POST {base}/doors/{doorId}/unlock`. */
const unlock = (path: string, kind: AdapterKind, base = '/doors'): Behaviour => ({
  path,
  kind,
  summary: `Unlock a door of ${titleOf(kind)}`,
  body: unlockBody(kind === 'OPENPATH' ? Type.Integer() : Id()),
  response: {},
  call: post((i) => `${base}/${seg(i.doorId)}/unlock`),
});
/** A list of a partner's doors: `GET {base}/doors`, answered as DoorType. */
const doorList = (path: string, kind: AdapterKind, body: Record<string, TSchema>, resource = '/doors'): Behaviour => ({
  path,
  kind,
  summary: `List the doors of ${titleOf(kind)}`,
  body,
  response: doors,
  call: get(resource),
  answer: listDoors,
});
const twin = (b: Behaviour): Behaviour => {
  const name = b.path.split('/').at(-1)!;
  return { ...b, path: `${P}/${name}`, operationId: `${name}Dep`, successor: b.path };
};
const emailPassword = { email: Field(Str()), password: Field(Str()) };

export const BEHAVIOURS: Behaviour[] = [
  ...[doorList(ac('getAmtReaders'), 'AMT', emailPassword, '/readers')].flatMap((b) => [b, twin(b)]),
  ...['getBrivoDoors', 'getBrivoDoorsV2', 'getBrivoDoorsV3'].map((name) => doorList(ac(name), 'BRIVO', { username: Field(Str()), password: Field(Str()) })),
  unlock(ac('unlockBrivoDoor'), 'BRIVO'),
  unlock(ac('unlockBrivoDoorV2'), 'BRIVO'),
  ...['getButterflymxPanels', 'getButterflymxPanelsV2'].map((name): Behaviour => ({
    path: ac(name),
    kind: 'BUTTERFLY_MX',
    summary: 'List the buildings of ButterflyMX with their panels',
    body: emailPassword,
    response: {
      buildings: Field(Type.Array(Type.Object({ id: Field(Type.Integer()), name: Field(Type.String()), panels: Field(Type.Array(DoorType)) }))),
    },
    call: get('/buildings'),
    answer: (json) => ({ buildings: items(json).map((b) => ({ ...door(b), panels: list(b.panels).map(door) })) }),
  })),
  {
    path: ac('getGeneaDoors'),
    kind: 'BADGE',
    summary: 'List the doors of the badge system (Genea)',
    body: { apiToken: Field(Str()) },
    response: { panelList: Field(Type.Array(NamedType)) },
    call: get('/v1/doors'),
    answer: (json) => ({ panelList: items(json).map(named) }),
  },
  unlock(ac('unlockGeneaDoor'), 'BADGE', '/v1/doors'),
  {
    path: ac('getInnerRangeConsoles'),
    kind: 'INNER_RANGE',
    summary: 'List the consoles of Inner Range with their doors',
    body: {},
    response: {
      consoles: Field(
        Type.Array(
          Type.Object({
            skyTunnelSN: Field(Type.String()),
            doorList: Field(Type.Array(Type.Object({ id: Field(Type.String()), name: Field(Type.String()), readerIds: Field(Type.Array(Type.String())) }))),
          }),
        ),
      ),
    },
    call: get('/consoles'),
    answer: (json) => ({
      consoles: items(json).map((c) => ({
        skyTunnelSN: str(c.skyTunnelSN),
        doorList: list(c.doorList).map((d) => ({ ...named(d), readerIds: strings(d.readerIds) })),
      })),
    }),
  },
  {
    path: ac('getInnerRangeDoors'),
    kind: 'INNER_RANGE',
    summary: 'List the doors of Inner Range',
    body: {},
    response: { doors: Field(Type.Array(Type.Object({ id: Field(Type.String()), name: Field(Type.String()), readerIds: Field(Type.Array(Type.String())) }))) },
    call: get('/doors'),
    answer: (json) => ({ doors: items(json).map((d) => ({ ...named(d), readerIds: strings(d.readerIds) })) }),
  },
  unlock(ac('unlockInnerRangeDoor'), 'INNER_RANGE'),
  {
    path: ac('getKisiDoors'),
    kind: 'KISI',
    summary: 'List the doors of Kisi by place',
    body: { apiSecretKey: Field(Str()) },
    response: { placeToDoorMap: Field(Type.Record(Type.String(), Type.Array(DoorType))) },
    call: get('/doors'),
    answer: (json) => {
      const byPlace: Record<string, unknown[]> = {};
      for (const d of items(json)) (byPlace[String(d.placeId ?? '')] ??= []).push(door(d));
      return { placeToDoorMap: byPlace };
    },
  },
  {
    path: ac('getKisiPlaces'),
    kind: 'KISI',
    summary: 'List the places of Kisi',
    body: { apiSecretKey: Field(Str()) },
    response: { places: Field(Type.Array(DoorType)) },
    call: get('/places'),
    answer: (json) => ({ places: items(json).map(door) }),
  },
  {
    path: ac('unlockKisiDoor'),
    kind: 'KISI',
    summary: 'Unlock a door of Kisi',
    body: { ...unlockBody(Type.Integer()), placeId: Field(NotRef('external', Type.Integer())) },
    response: {},
    call: post((i) => `/places/${seg(i.placeId)}/doors/${seg(i.doorId)}/unlock`),
  },
  doorList(ac('getOpenpathDoors'), 'OPENPATH', emailPassword),
  {
    path: ac('getOpenpathLockdownPlans'),
    kind: 'OPENPATH',
    summary: 'List the lockdown plans of Openpath',
    body: emailPassword,
    response: { lockdownPlans: Field(Type.Array(Type.Object({ id: Field(Type.Integer()), name: Field(Type.String()), isActive: Field(Type.Boolean()) }))) },
    call: get('/lockdown-plans'),
    answer: (json) => ({ lockdownPlans: items(json).map((l) => ({ ...door(l), isActive: l.isActive === true })) }),
  },
  unlock(ac('unlockOpenpathDoor'), 'OPENPATH'),
  ...(['trigger', 'revert'] as const).map((action): Behaviour => ({
    path: ac(`${action}OpenpathLockdown`),
    kind: 'OPENPATH',
    summary: `${action === 'trigger' ? 'Trigger' : 'Revert'} a lockdown plan of Openpath (doorId: the plan's id)`,
    body: unlockBody(Type.Integer()),
    response: {},
    call: post((i) => `/lockdown-plans/${seg(i.doorId)}/${action}`),
  })),
  ...['getOpentechAllianceFacilities', 'getOpentechAllianceFacilitiesV2'].map((name): Behaviour => ({
    path: ac(name),
    kind: 'OPENTECH_ALLIANCE',
    summary: 'List the facilities of OpenTech Alliance with their devices',
    body: {},
    response: {
      facilities: Field(
        Type.Array(
          Type.Object({
            id: Field(Type.String()),
            name: Field(Type.String()),
            deviceList: Field(Type.Array(DoorType)),
            actionGroups: Field(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
          }),
        ),
      ),
    },
    call: get('/facilities'),
    answer: (json) => ({
      facilities: items(json).map((f) => ({
        ...named(f),
        deviceList: list(f.deviceList).map(door),
        actionGroups: list(f.actionGroups),
      })),
    }),
  })),
  unlock(ac('unlockOpentechAllianceDoor'), 'OPENTECH_ALLIANCE'),
  unlock(ac('unlockOpentechAllianceDoorV2'), 'OPENTECH_ALLIANCE'),
  {
    path: ac('getPdkDoors'),
    kind: 'PRODATAKEY',
    summary: 'List the doors of ProdataKey',
    body: { ouId: Field(NotRef('external', Str())) },
    response: { panelList: Field(Type.Array(NamedType)) },
    call: (i) => ({ method: 'GET', path: `/doors${i.ouId ? `?ouId=${seg(i.ouId)}` : ''}` }),
    answer: (json) => ({ panelList: items(json).map(named) }),
  },
  unlock(ac('unlockPdkDoor'), 'PRODATAKEY'),
  {
    path: ac('getPlaceOsDoors'),
    kind: 'PLACE_OS',
    summary: 'List the doors of a PlaceOS instance',
    body: { apiUrl: Field(Str()) },
    response: { doors: Field(Type.Array(NamedType)) },
    call: get('/doors'),
    answer: (json) => ({ doors: items(json).map(named) }),
  },
  unlock(ac('unlockPlaceOsDoor'), 'PLACE_OS'),
  {
    path: `${P}/incidentManagement/getInformacastScenarios`,
    kind: 'INFORMACAST',
    summary: 'List the scenarios of InformaCast',
    body: {},
    response: { scenarios: Field(Type.Array(Type.Object({ id: Field(Type.String()), name: Field(Type.String()), scenarioId: Field(Type.String()) }))) },
    call: get('/scenarios'),
    answer: (json) => ({ scenarios: items(json).map((s) => ({ ...named(s), scenarioId: str(s.scenarioId ?? s.id) })) }),
  },
  ...[
    {
      path: `${P}/incidentManagement/getOpenAIModels`,
      kind: 'OPENAI',
      summary: 'List the models of the OpenAI(-compatible) server',
      body: { openAISettings: Field(Type.Object({ apiToken: Field(Str()), baseUrl: Field(Str()) })) },
      response: {
        models: Field(
          Type.Array(
            Type.Object({
              id: Field(Type.String()),
              object: Field(Type.String()),
              created: Field(Type.String()),
              ownedBy: Field(Type.String()),
              owned_by: Field(Type.String()),
            }),
          ),
        ),
      },
      call: get('/models'),
      answer: (json: unknown) => ({
        models: items(json).map((m) => ({
          id: str(m.id),
          object: str(m.object),
          created: str(m.created),
          ownedBy: str(m.owned_by),
          owned_by: str(m.owned_by),
        })),
      }),
    } satisfies Behaviour,
  ].flatMap((b) => [b, twin(b)]),
  {
    path: ac('testBoulevardConnection'),
    kind: 'BOULEVARD',
    summary: "Test Boulevard's credentials: answers the business's locations",
    body: { apiToken: Field(Str()), boulevardBusinessId: Field(NotRef('external', Str())) },
    response: {
      success: Field(Type.Boolean()),
      errorMessage: Field(Type.String()),
      locations: Field(Type.Array(NamedType)),
    },
    call: (i) => ({ method: 'GET', path: `/businesses/${seg(i.boulevardBusinessId)}/locations` }),
    answer: (json) => ({ success: true, locations: items(json).map(named) }),
  },
];

/** The saved settings of the partner with their secrets opened: the credentials a call uses unless the request sends its own. */
async function savedCredentials(deps: IntegrationDeps, ctx: CallerContext, kind: AdapterKind): Promise<Record<string, unknown>> {
  // Calendly is called as Gatehouse's application: the organization keeps no settings of it.
  if (kind === 'CALENDLY') return {};
  const integration = await findIntegration(deps, ctx.orgUuid, kind);
  if (!integration) return {};
  const secrets = Object.fromEntries(secretFieldsOf(kind).map((field) => [field, openSecret(deps, integration, field)]));
  return { ...integration.settings, ...secrets };
}

/** Runs a behaviour: a camera named must be the organization's; credentials the partner refuses answer authError. */
export async function runBehaviour(deps: IntegrationDeps, ctx: CallerContext, b: Behaviour, input: Rec): Promise<Record<string, unknown>> {
  const camera = typeof input.cameraUuid === 'string' ? input.cameraUuid : null;
  if (camera && (await keepCameras(deps, ctx.orgUuid, [camera], [])).length === 0) throw fail('NOT_FOUND', `Camera ${camera}`);
  const given = Object.fromEntries(
    Object.entries({ ...input, ...((input.openAISettings as Rec | null | undefined) ?? {}) }).filter(([, v]) => v !== null && v !== undefined && v !== ''),
  );
  const saved = await savedCredentials(deps, ctx, b.kind);
  const credentials = { ...saved, ...given };
  const requests = b.call(input, saved, ctx);
  const answers = Array.isArray(requests)
    ? await Promise.all(requests.map((r) => callPartner(deps, b.kind, credentials, r).catch(() => undefined)))
    : [await callPartner(deps, b.kind, credentials, requests)];
  if (answers.some((a) => a && refusedCredentials(a))) {
    const errorMsg = `${titleOf(b.kind)} refused the credentials`;
    return b.kind === 'BOULEVARD' ? { success: false, errorMessage: errorMsg, error: true, errorMsg } : { error: true, authError: true, errorMsg };
  }
  const json = Array.isArray(requests) ? answers.map((a) => a?.json) : answers[0]!.json;
  const kept = b.keep?.(json, input, saved, ctx);
  if (kept && b.kind in PARTNERS) {
    const kind = b.kind as PartnerKind;
    await (kept === 'delete' ? deletePartnerSettings(deps, ctx, kind) : patchPartnerSettings(deps, ctx, kind, kept));
  }
  return b.answer ? b.answer(json, input, saved) : {};
}
