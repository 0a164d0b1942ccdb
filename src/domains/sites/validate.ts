import { Value } from 'typebox/value';
import { normaliseMac, PIN_PATTERN } from '../devices/identifiers.js';
import { intervalProblem, isValidTimeZone } from '../schedules/week-minutes.js';
import { SENSOR_KINDS, SiteFile, type SiteKind } from './schema.js';

/** The kinds whose entries are devices standing at a location. */
export const DEVICE_SITE_KINDS = ['cameras', 'sensors', 'doorControllers', 'audioGateways', 'elevatorLandings', 'relays'] as const;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export const controllerNameFor = (doorName: string) => `${doorName} Controller`;

/** The key an entry is known by: its name, a shipment's crmOppId, a discovery's normalised MAC address. */
export function entryKey(kind: SiteKind, entry: Record<string, unknown>): string {
  if (kind === 'shipments') return String(entry.crmOppId);
  if (kind === 'thirdPartyCameraDiscoveries') return normaliseMac(String(entry.macAddress)) ?? String(entry.macAddress);
  return String(entry.name);
}

/** How a message names an entry: `doors[1] (Back Door)`. */
function label(kind: string, index: number, entry: unknown): string {
  const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
  const key = e.name ?? e.crmOppId ?? e.macAddress;
  return typeof key === 'string' ? `${kind}[${index}] (${key})` : `${kind}[${index}]`;
}

/** `/doors/1/cameras/0` of the file → `doors[1] (Back Door).cameras[0]`. */
function pathLabel(site: Record<string, unknown>, pointer: string): string {
  const [kind, index, ...rest] = pointer.split('/').slice(1).map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (kind === undefined) return 'site file';
  if (index === undefined) return kind;
  const entry = (site[kind] as unknown[] | undefined)?.[Number(index)];
  return label(kind, Number(index), entry) + rest.map((p) => (/^[0-9]+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
}

/** Type errors, one line per field: unknown fields, missing fields, wrong types and enumerations. */
function shapeProblems(site: Record<string, unknown>): string[] {
  const byPath = new Map<string, string>();
  const allowed = new Map<string, unknown[]>();
  for (const error of Value.Errors(SiteFile, site)) {
    let path = error.instancePath;
    let message = error.message;
    if (error.keyword === 'additionalProperties' || error.keyword === 'anyOf') continue;
    if (error.keyword === 'boolean') message = 'unknown field';
    if (error.keyword === 'required') {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      path = `${path}/${missing.join(',')}`;
      message = 'is required';
    }
    if (error.keyword === 'const') {
      allowed.set(path, [...(allowed.get(path) ?? []), (error.params as { allowedValue: unknown }).allowedValue]);
      message = `must be one of ${allowed.get(path)!.join(', ')}`;
      byPath.set(path, message);
      continue;
    }
    if (!byPath.has(path)) byPath.set(path, message);
  }
  return [...byPath].map(([path, message]) => `${pathLabel(site, path)}: ${message}`);
}

/** Checks of a well-typed file: unique names, values, and references between entries. */
function ruleProblems(site: SiteFile): string[] {
  const problems: string[] = [];
  const names = new Map<SiteKind, Set<string>>();
  for (const kind of Object.keys(site) as SiteKind[]) {
    const seen = new Set<string>();
    (site[kind] ?? []).forEach((entry, i) => {
      const key = entryKey(kind, entry);
      if (seen.has(key)) problems.push(`${label(kind, i, entry)}: duplicate ${kind === 'shipments' ? 'crmOppId' : kind === 'thirdPartyCameraDiscoveries' ? 'macAddress' : 'name'} "${key}"`);
      seen.add(key);
    });
    names.set(kind, seen);
  }
  const has = (kind: SiteKind, name: string) => names.get(kind)?.has(name) ?? false;
  const refer = (where: string, kind: SiteKind, singular: string, name: string | undefined) => {
    if (name !== undefined && !has(kind, name)) problems.push(`${where}: no ${singular} named "${name}"`);
  };

  site.locations?.forEach((l, i) => {
    if (l.timeZone !== undefined && !isValidTimeZone(l.timeZone)) problems.push(`${label('locations', i, l)}.timeZone: "${l.timeZone}" is not a known IANA time zone`);
    if (l.monitoringPin !== undefined && !PIN_PATTERN.test(l.monitoringPin)) problems.push(`${label('locations', i, l)}.monitoringPin: must be 4 to 8 digits`);
  });
  site.users?.forEach((u, i) => {
    if (u.email !== undefined && !EMAIL.test(u.email)) problems.push(`${label('users', i, u)}.email: "${u.email}" is not an e-mail address`);
  });
  site.schedules?.forEach((s, i) => {
    const intervals = s.intervals.map((x) => ({ minuteOfWeekStart: x.start, minuteOfWeekStop: x.stop }));
    const problem = intervalProblem(intervals, `${label('schedules', i, s)}.intervals`);
    if (problem) problems.push(problem);
  });
  for (const kind of DEVICE_SITE_KINDS) {
    site[kind]?.forEach((d, i) => {
      refer(`${label(kind, i, d)}.location`, 'locations', 'location', d.location);
      if (d.macAddress !== undefined && !normaliseMac(d.macAddress)) problems.push(`${label(kind, i, d)}.macAddress: "${d.macAddress}" is not a MAC address`);
    });
  }
  site.sensors?.forEach((s, i) => {
    if (!Object.hasOwn(SENSOR_KINDS, s.kind)) problems.push(`${label('sensors', i, s)}.kind: must be one of ${Object.keys(SENSOR_KINDS).join(', ')}`);
    if (s.thresholds && s.kind !== 'environmental' && s.kind !== 'climate') problems.push(`${label('sensors', i, s)}.thresholds: only environmental sensors have thresholds`);
  });
  site.doors?.forEach((d, i) => {
    const at = label('doors', i, d);
    refer(`${at}.location`, 'locations', 'location', d.location);
    refer(`${at}.schedule`, 'schedules', 'schedule', d.schedule);
    refer(`${at}.controller`, 'doorControllers', 'door controller', d.controller);
    d.cameras?.forEach((c, k) => refer(`${at}.cameras[${k}]`, 'cameras', 'camera', c));
    d.access?.forEach((u, k) => refer(`${at}.access[${k}]`, 'users', 'user', u));
    if (d.controller === undefined && has('doorControllers', controllerNameFor(d.name))) {
      problems.push(`${at}.controller: a door controller named "${controllerNameFor(d.name)}" is declared; name it here or rename it`);
    }
  });
  site.thirdPartyCameraDiscoveries?.forEach((t, i) => {
    if (!normaliseMac(t.macAddress)) problems.push(`${label('thirdPartyCameraDiscoveries', i, t)}.macAddress: "${t.macAddress}" is not a MAC address`);
  });
  site.shipments?.forEach((s, i) => {
    if (!EMAIL.test(s.email)) problems.push(`${label('shipments', i, s)}.email: "${s.email}" is not an e-mail address`);
  });
  return problems;
}

/** Every problem of a site file (empty when it is valid), each naming the entry and the field. */
export function siteFileProblems(site: unknown): string[] {
  if (!site || typeof site !== 'object' || Array.isArray(site)) return ['site file: must be a mapping of kinds (locations, cameras, doors, ...)'];
  const shape = shapeProblems(site as Record<string, unknown>);
  return shape.length > 0 ? shape : ruleProblems(site as SiteFile);
}
