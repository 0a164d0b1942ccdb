import { Type } from 'typebox';
import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { EpochMs, Field } from '../../../schemas/common.js';
import type { PartnerRequest } from './adapter.js';
import { items, seg, str, strings, type Behaviour, type Rec } from './behaviours.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/*
 * The workplace partners' behaviours (Envoy visitors and deliveries, Toast orders, the Microsoft Teams bot,
 * Calendly events, Google Drive tokens): lines of the same table as behaviours.ts, run by its runner through the
 * one adapter. docs/integrations.md gives the partner API each one calls.
 */

const P = '/api/integrations';
const Str = () => Type.String({ maxLength: 2000 });
const Strs = () => Type.Array(Str(), { maxItems: 500 });

const Person = Type.Object({
  email: Field(Type.String()),
  id: Field(Type.String()),
  locationIds: Field(Type.Array(Type.String())),
  locations: Field(Type.Array(Type.String())),
  name: Field(Type.String()),
  type: Field(Type.String()),
});
// A person or a named record the partner did not give is left out: the catalogue's records are not nullable.
const person = (p: unknown) => {
  const r = (p ?? {}) as Rec;
  return p
    ? { email: str(r.email), id: str(r.id), locationIds: strings(r.locationIds), locations: strings(r.locations), name: str(r.name), type: str(r.type) }
    : undefined;
};
const Named = Type.Object({ name: Field(Type.String()) });
const named = (v: unknown) => (v ? { name: str((v as Rec).name) } : undefined);
/** An ISO time of the partner's as epoch milliseconds; null when there is none. */
const ms = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : null;
};
const query = (params: Rec) => {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}=${seg(Array.isArray(v) ? v.join(',') : v)}`)
    .join('&');
  return q ? `?${q}` : '';
};
const get = (path: string): PartnerRequest => ({ method: 'GET', path });

// Envoy
const envoyWindow = (i: Rec) => ({ locationIds: i.locationIds, from: i.startTimestampMs, to: i.endTimestampMs });
const Delivery = Type.Object({
  carrier: Field(Named),
  carrierInfo: Field(Named),
  deliveryArea: Field(Named),
  deliveryAreaInfo: Field(Named),
  locationId: Field(Type.String()),
  pickedUpAt: Field(Type.String()),
  pickedUpBy: Field(Person),
  receivedTimestampMs: Field(Type.Integer()),
  recipient: Field(Person),
  status: Field(Type.String()),
});
const delivery = (d: Rec) => ({
  carrier: named(d.carrier),
  carrierInfo: named(d.carrier),
  deliveryArea: named(d.deliveryArea),
  deliveryAreaInfo: named(d.deliveryArea),
  locationId: str(d.locationId),
  pickedUpAt: str(d.pickedUpAt),
  pickedUpBy: person(d.pickedUpBy),
  receivedTimestampMs: ms(d.createdAt),
  recipient: person(d.recipient),
  status: str(d.status),
});
const window = { startTimestampMs: Field(EpochMs()), endTimestampMs: Field(EpochMs()), locationIds: NotRef('external', Field(Strs())) };

// Toast
const ToastRow = Type.Object({
  assignedCameraList: Field(Type.Array(Type.String())),
  employeeName: Field(Type.String()),
  orderGuid: Field(Type.String()),
  paymentType: Field(Type.String()),
  restaurantName: Field(Type.String()),
  revenueCenterName: Field(Type.String()),
  serviceAreaName: Field(Type.String()),
  timestamp: Field(Type.String()),
  tipAmount: Field(Type.String()),
  totalAmount: Field(Type.String()),
  totalDiscountAmount: Field(Type.String()),
  voided: Field(Type.String()),
});
const field = (record: unknown, key: string) => ((record ?? {}) as Rec)[key];
/** The orders of one restaurant as report rows: the cameras are those the settings assign to the order's service area. */
const toastRows = (json: unknown, guid: string, saved: Rec) => {
  const restaurant = (field(saved.restaurantSettingsMap, guid) ?? field(saved.toastRestaurantInfoMap, guid) ?? {}) as Rec;
  return items(json).map((o) => ({
    assignedCameraList: strings(field(field(restaurant.serviceAreaSettingsMap, String(o.serviceAreaGuid ?? '')), 'assignedCameraList')),
    employeeName: str(o.employeeName),
    orderGuid: str(o.guid),
    paymentType: str(o.paymentType),
    restaurantName: str(restaurant.restaurantName),
    revenueCenterName: str(o.revenueCenterName),
    serviceAreaName: str(o.serviceAreaName),
    timestamp: str(o.openedDate),
    tipAmount: str(o.tipAmount),
    totalAmount: str(o.totalAmount),
    totalDiscountAmount: str(o.totalDiscountAmount),
    voided: str(o.voided),
  }));
};
/** The restaurants the Toast settings name. */
const restaurantsOf = (saved: Rec) => [
  ...new Set([
    ...Object.keys((saved.restaurantSettingsMap as Rec | null) ?? {}),
    ...Object.keys((saved.toastRestaurantInfoMap as Rec | null) ?? {}),
    ...(typeof saved.currentToastRestaurantGuid === 'string' ? [saved.currentToastRestaurantGuid] : []),
  ]),
];
const orders = (guid: string, businessDate: unknown) => get(`/restaurants/${seg(guid)}/orders${query({ businessDate })}`);

// Microsoft Teams: the bot, per team and per user of the organization, kept in the settings' maps.
/** Who the Teams bot is installed for: the caller's user, else its key. */
const caller = (ctx: CallerContext) => ctx.userUuid ?? ctx.apiKeyId ?? ctx.orgUuid;
/** The Teams tenant of the saved settings: the bot is Gatehouse's application, installed in the organization's tenant. */
const tenant = (saved: Rec) => {
  if (typeof saved.tenantId !== 'string' || saved.tenantId === '') throw fail('INVALID_VALUE', 'Microsoft Teams: save the integration with its tenantId first');
  return `/tenants/${seg(saved.tenantId)}`;
};
const withEntry = (map: unknown, key: string, value: Rec | null) => {
  const next = { ...((map as Rec | null) ?? {}) };
  if (value) next[key] = value;
  else delete next[key];
  return next;
};
/** A team's entry once the bot is in it, in the catalogue's MicrosoftTeamsChannelSettings names. */
const teamEntry = (ctx: CallerContext): Rec => ({ sendChannelNotifications: true, ...(ctx.userUuid ? { installingUserUuid: ctx.userUuid } : {}) });
const teamBot = (install: boolean): Behaviour => ({
  path: `${P}/incidentManagement/${install ? 'install' : 'uninstall'}MicrosoftTeamsBotForTeam`,
  kind: 'MICROSOFT_TEAMS',
  summary: `${install ? 'Install' : 'Uninstall'} the alert bot in a team of Microsoft Teams`,
  body: { teamId: NotRef('external', Field(Type.String({ minLength: 1, maxLength: 200 }))) },
  response: {},
  call: (i, saved) => ({ method: install ? 'POST' : 'DELETE', path: `${tenant(saved)}/teams/${seg(i.teamId)}/bot` }),
  keep: (_json, i, saved, ctx) => ({
    microsoftTeamSettingsMap: withEntry(saved.microsoftTeamSettingsMap, String(i.teamId), install ? teamEntry(ctx) : null),
  }),
});
const userBot = (path: string, install: boolean, summary: string, resource = '/bot'): Behaviour => ({
  path: `${P}/incidentManagement/${path}`,
  kind: 'MICROSOFT_TEAMS',
  summary,
  body: {},
  response: {},
  call: (_i, saved, ctx) => ({ method: install ? 'POST' : 'DELETE', path: `${tenant(saved)}/users/${seg(caller(ctx))}${resource}` }),
  keep: (_json, _i, saved, ctx) => ({
    microsoftTeamsUserSettingsMap: withEntry(
      saved.microsoftTeamsUserSettingsMap,
      caller(ctx),
      install ? { userId: caller(ctx), sendUserNotifications: true } : null,
    ),
  }),
});

const calendly = (path: string, more: Partial<Behaviour> = {}): Behaviour => ({
  path,
  kind: 'CALENDLY',
  summary: 'The invitee and times of a scheduled Calendly event',
  body: { eventUuid: NotRef('external', Field(Type.String({ minLength: 1, maxLength: 200 }))) },
  response: { email: Field(Type.String()), endTimeMs: Field(Type.Integer()), name: Field(Type.String()), startTimeMs: Field(Type.Integer()) },
  call: (i) => get(`/scheduled_events/${seg(i.eventUuid)}`),
  answer: (json) => {
    const e = (json ?? {}) as Rec;
    return { email: str(e.email), endTimeMs: ms(e.end_time), name: str(e.name), startTimeMs: ms(e.start_time) };
  },
  ...more,
});

const EnvoyInvite = Type.Object({
  customFields: Field(Type.Array(Type.Object({ field: Field(Str()), value: Field(Str()) }), { maxItems: 100 })),
  expectedArrivalAt: Field(Str()),
  expectedDepartureAt: Field(Str()),
  flowId: NotRef('external', Field(Str())),
  hostEmployeeId: NotRef('external', Field(Str())),
  inviteId: NotRef('external', Field(Str())),
  invitee: Field(
    Type.Object({
      email: Field(Str()),
      id: NotRef('external', Field(Str())),
      locationIds: NotRef('external', Field(Strs())),
      locations: Field(Strs()),
      name: Field(Str()),
      type: Field(Str()),
    }),
  ),
  locationId: NotRef('external', Field(Str())),
  notes: Field(Str()),
  sendEmailToInvitee: Field(Type.Boolean()),
});
const sm = (name: string) => `${P}/serviceManagement/${name}`;
const report = (name: string) => `/api/report/${name}`;

export const WORKPLACE_BEHAVIOURS: Behaviour[] = [
  calendly(sm('getCalendlyEventDetails')),
  calendly(`${P}/getCalendlyEventDetails`, { operationId: 'getCalendlyEventDetailsDep', successor: sm('getCalendlyEventDetails') }),
  {
    path: `${P}/incidentManagement/getMicrosoftUsersJoinedTeams`,
    kind: 'MICROSOFT_TEAMS',
    summary: 'The teams of Microsoft Teams the caller belongs to, by id',
    body: {},
    response: { teamsMap: Field(Type.Record(Type.String(), Type.String())) },
    call: (_i, saved, ctx) => get(`${tenant(saved)}/users/${seg(caller(ctx))}/joined-teams`),
    answer: (json) => ({ teamsMap: Object.fromEntries(items(json).map((t) => [String(t.id), str(t.name) ?? ''])) }),
  },
  teamBot(true),
  teamBot(false),
  userBot('installMicrosoftTeamsBotForUser', true, 'Install the alert bot for the caller in Microsoft Teams'),
  userBot('uninstallMicrosoftTeamsBotForUser', false, "Uninstall the caller's alert bot in Microsoft Teams"),
  userBot('deleteMicrosoftTeamsUser', false, "Unlink the caller's Microsoft Teams account (its bot goes too)", ''),
  {
    path: sm('createEnvoyInvite'),
    kind: 'ENVOY',
    summary: 'Invite a visitor through Envoy',
    body: { invitation: Field(EnvoyInvite) },
    response: {},
    call: (i) => ({ method: 'POST', path: '/invites', json: i.invitation ?? {} }),
  },
  {
    path: report('getEnvoyLocations'),
    kind: 'ENVOY',
    summary: 'The locations of the Envoy account',
    body: {},
    response: { locationList: Field(Type.Array(Type.Object({ id: Field(Type.Integer()), name: Field(Type.String()) }))) },
    call: () => get('/locations'),
    answer: (json) => ({ locationList: items(json).map((l) => ({ id: Number.isInteger(Number(l.id)) ? Number(l.id) : null, name: str(l.name) })) }),
  },
  {
    path: report('getEnvoyEmployees'),
    kind: 'ENVOY',
    summary: 'The employees of Envoy at some locations',
    body: { locationIds: NotRef('external', Field(Strs())) },
    response: { employees: Field(Type.Array(Person)) },
    call: (i) => get(`/employees${query({ locationIds: i.locationIds })}`),
    answer: (json) => ({ employees: items(json).map(person) }),
  },
  {
    path: report('getEnvoyDeliveries'),
    kind: 'ENVOY',
    summary: 'The deliveries Envoy received in a window: those waiting and those collected',
    body: window,
    response: { pendingDeliveries: Field(Type.Array(Delivery)), collectedDeliveries: Field(Type.Array(Delivery)) },
    call: (i) => get(`/deliveries${query(envoyWindow(i))}`),
    answer: (json) => {
      const all = items(json);
      const collected = (d: Rec) => d.pickedUpAt !== undefined && d.pickedUpAt !== null;
      return { pendingDeliveries: all.filter((d) => !collected(d)).map(delivery), collectedDeliveries: all.filter(collected).map(delivery) };
    },
  },
  {
    path: report('getEnvoyVisitors'),
    kind: 'ENVOY',
    summary: 'The visitors Envoy signed in during a window, and those invited',
    body: { ...window, includeSignedOutVisitors: Field(Type.Boolean()) },
    response: {
      visitors: Field(
        Type.Array(
          Type.Object({
            agreementsStatus: Field(Type.String()),
            email: Field(Type.String()),
            fullName: Field(Type.String()),
            host: Field(Person),
            locationId: Field(Type.String()),
            notes: Field(Type.String()),
            signedInAt: Field(Type.String()),
            signedInTimestampMs: Field(Type.Integer()),
            signedOutAt: Field(Type.String()),
            signedOutTimestampMs: Field(Type.Integer()),
          }),
        ),
      ),
      invites: Field(
        Type.Array(
          Type.Object({
            expectedArrivalAt: Field(Type.String()),
            expectedArrivalTimestampMs: Field(Type.Integer()),
            host: Field(Person),
            invitee: Field(Person),
            locationId: Field(Type.String()),
          }),
        ),
      ),
    },
    call: (i) => [get(`/entries${query(envoyWindow(i))}`), get(`/invites${query(envoyWindow(i))}`)],
    answer: (json, i) => {
      const [entries, invites] = json as unknown[];
      const visitors = items(entries).filter((v) => i.includeSignedOutVisitors === true || v.signedOutAt === undefined || v.signedOutAt === null);
      return {
        visitors: visitors.map((v) => ({
          agreementsStatus: str(v.agreementsStatus),
          email: str(v.email),
          fullName: str(v.fullName),
          host: person(v.host),
          locationId: str(v.locationId),
          notes: str(v.notes),
          signedInAt: str(v.signedInAt),
          signedInTimestampMs: ms(v.signedInAt),
          signedOutAt: str(v.signedOutAt),
          signedOutTimestampMs: ms(v.signedOutAt),
        })),
        invites: items(invites).map((v) => ({
          expectedArrivalAt: str(v.expectedArrivalAt),
          expectedArrivalTimestampMs: ms(v.expectedArrivalAt),
          host: person(v.host),
          invitee: person(v.invitee),
          locationId: str(v.locationId),
        })),
      };
    },
  },
  {
    path: sm('getToastServiceAreas'),
    kind: 'TOAST',
    summary: 'The service areas of a Toast restaurant',
    body: { restaurantGuid: Field(Type.String({ minLength: 1, maxLength: 200 })) },
    response: { serviceAreas: Field(Type.Array(Type.Object({ id: Field(Type.String()), name: Field(Type.String()) }))) },
    call: (i) => get(`/restaurants/${seg(i.restaurantGuid)}/service-areas`),
    answer: (json) => ({ serviceAreas: items(json).map((a) => ({ id: str(a.guid ?? a.id), name: str(a.name) })) }),
  },
  {
    path: report('getToastEventsTable'),
    kind: 'TOAST',
    summary: "A Toast restaurant's orders of a business day (yyyyMMdd), with the cameras at their service areas",
    body: {
      businessDate: Field(Type.String({ maxLength: 20, description: 'yyyyMMdd' })),
      restaurantGuid: Field(Type.String({ minLength: 1, maxLength: 200 })),
    },
    response: { eventTable: Field(Type.Array(ToastRow)) },
    call: (i, saved) => orders(String(i.restaurantGuid ?? saved.currentToastRestaurantGuid ?? ''), i.businessDate),
    answer: (json, i, saved) => ({ eventTable: toastRows(json, String(i.restaurantGuid ?? saved.currentToastRestaurantGuid ?? ''), saved) }),
  },
  {
    path: report('getToastEventsTableAllLocations'),
    kind: 'TOAST',
    summary: 'The orders of a business day (yyyyMMdd) at every restaurant of the Toast settings; failedGuids: those Toast did not answer',
    body: { businessDate: Field(Type.String({ maxLength: 20, description: 'yyyyMMdd' })) },
    response: { eventTable: Field(Type.Array(ToastRow)), failedGuids: Field(Type.Array(Type.String())) },
    call: (i, saved) => restaurantsOf(saved).map((guid) => orders(guid, i.businessDate)),
    answer: (json, _i, saved) => {
      const guids = restaurantsOf(saved);
      const answers = json as unknown[];
      return {
        eventTable: guids.flatMap((guid, n) => (answers[n] === undefined ? [] : toastRows(answers[n], guid, saved))),
        failedGuids: guids.filter((_, n) => answers[n] === undefined),
      };
    },
  },
  {
    path: `${P}/storage/refreshGoogleAccessToken`,
    kind: 'GOOGLE',
    summary: "Refresh the Google Drive access token with the saved refresh token (the caller's own with refreshUserToken)",
    body: { refreshUserToken: Field(Type.Boolean()) },
    response: { accessToken: Field(Type.String()) },
    call: (_i, saved) => ({ method: 'POST', path: '/token', json: { grant_type: 'refresh_token', refresh_token: saved.refreshToken ?? null } }),
    // The new token replaces the saved one, sealed like it.
    keep: (json) => (str((json as Rec | null)?.access_token) ? { apiToken: str((json as Rec).access_token) } : {}),
    answer: (json) => ({ accessToken: str((json as Rec | null)?.access_token) }),
  },
  {
    path: `${P}/storage/revokeGoogleDriveAccess`,
    kind: 'GOOGLE',
    summary: "Revoke Gatehouse's access to Google Drive: Google forgets the token and the settings go",
    body: { revokeUserAccount: Field(Type.Boolean()) },
    response: {},
    call: (_i, saved) => ({ method: 'POST', path: '/revoke', json: { token: saved.refreshToken ?? saved.apiToken ?? null } }),
    keep: (_json, i, saved, ctx) => (i.revokeUserAccount === true ? { userSettingsMap: withEntry(saved.userSettingsMap, caller(ctx), null) } : 'delete'),
  },
];
