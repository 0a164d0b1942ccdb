import { Value } from 'typebox/value';
import { normaliseMac, PIN_PATTERN } from '../devices/identifiers.js';
import { checkValue, MAX_VALUE_LENGTH, type ValueType } from '../orgs/users/user-metadata.service.js';
import { FUNCTIONALITIES } from '../../edge/rights.js';
import { intervalProblem, isValidTimeZone } from '../schedules/week-minutes.js';
import { accessLockdownProblems } from './access-lockdown.js';
import { SENSOR_KINDS, SiteFile, type SiteKind } from './schema.js';

/** The kinds whose entries are devices standing at a location. */
export const DEVICE_SITE_KINDS = ['cameras', 'sensors', 'doorControllers', 'audioGateways', 'elevatorLandings', 'relays', 'nvrs'] as const;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export const controllerNameFor = (doorName: string) => `${doorName} Controller`;
/** The grant a door's access list is seeded as. */
export const doorAccessGrantName = (doorName: string) => `${doorName} access`;

/** The field an entry is known by, where it is not its name. */
const KEY_FIELDS: Partial<Record<SiteKind, string>> = {
  shipments: 'crmOppId',
  thirdPartyCameraDiscoveries: 'macAddress',
  partnerHardware: 'serialNumber',
};

/** The key an entry is known by: its name, a shipment's crmOppId, a discovery's normalised MAC address. */
export function entryKey(kind: SiteKind, entry: Record<string, unknown>): string {
  if (kind === 'shipments') return String(entry.crmOppId);
  if (kind === 'partnerHardware') return String(entry.serialNumber);
  if (kind === 'thirdPartyCameraDiscoveries') return normaliseMac(String(entry.macAddress)) ?? String(entry.macAddress);
  if (kind === 'guests') return String(entry.email).toLowerCase();
  return String(entry.name);
}

/** The entry's name, as a message shows it after the path: ` (Back Door)`, or nothing. */
function nameOf(entry: unknown): string {
  const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
  const key = e.name ?? e.crmOppId ?? e.serialNumber ?? e.macAddress ?? e.email;
  return typeof key === 'string' ? ` (${key})` : '';
}

/** How a message names a field of an entry: `doors[1].schedule (Back Door)`; `field` starts with `.` or `[`. */
function label(kind: string, index: number, entry: unknown, field = ''): string {
  return `${kind}[${index}]${field}${nameOf(entry)}`;
}

/** `/doors/1/cameras/0` of the file → `doors[1].cameras[0] (Back Door)`, and the entry it lies in. */
function pathOf(site: Record<string, unknown>, pointer: string): { label: string; path: string } {
  const [kind, index, ...rest] = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (kind === undefined) return { label: 'site file', path: '' };
  if (index === undefined) return { label: kind, path: kind };
  const entry = (site[kind] as unknown[] | undefined)?.[Number(index)];
  const field = rest.map((p) => (/^[0-9]+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  return { label: label(kind, Number(index), entry, field), path: `${kind}[${index}]${field}` };
}

/** The path a problem starts with: `doors[1].schedule` of `doors[1].schedule (Back Door): ...`. */
const problemPath = (problem: string) => /^[^\s:]+/.exec(problem)?.[0] ?? '';

/** Type errors, one line per field (unknown fields, missing fields, wrong types and enumerations), and the entries they lie in. */
function shapeProblems(site: Record<string, unknown>): { problems: string[]; badPaths: string[] } {
  const byPath = new Map<string, string>();
  const allowed = new Map<string, unknown[]>();
  const badPaths: string[] = [];
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
  const problems = [...byPath].map(([path, message]) => {
    const at = pathOf(site, path);
    badPaths.push(at.path);
    return `${at.label}: ${message}`;
  });
  return { problems, badPaths };
}

/**
 * Checks of the well-typed entries of a file: unique names, values, and references between entries. Names
 * are read from every entry (a mistyped entry still answers to its name), so one wrong entry is reported
 * once, by the type check, and the references to it are not reported again.
 */
function ruleProblems(site: SiteFile): string[] {
  const problems: string[] = [];
  /**
   * Each entry of a kind, with its index in the file. An entry may be mistyped (its type errors are reported
   * already): a check that cannot read it is skipped, and what it says of a mistyped field is dropped.
   */
  const each = <K extends SiteKind>(kind: K, fn: (entry: NonNullable<SiteFile[K]>[number], index: number) => void) => {
    const list = site[kind];
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      if (!entry || typeof entry !== 'object') return;
      try {
        fn(entry, i);
      } catch {
        // a mistyped entry: its type errors say what is wrong
      }
    });
  };
  const names = new Map<SiteKind, Set<string>>();
  for (const kind of Object.keys(site) as SiteKind[]) {
    const seen = new Set<string>();
    (Array.isArray(site[kind]) ? site[kind]! : []).forEach((entry, i) => {
      if (!entry || typeof entry !== 'object') return;
      const key = entryKey(kind, entry);
      if (seen.has(key)) problems.push(`${label(kind, i, entry)}: duplicate ${KEY_FIELDS[kind] ?? 'name'} "${key}"`);
      seen.add(key);
    });
    names.set(kind, seen);
  }
  const has = (kind: SiteKind, name: string) => names.get(kind)?.has(name) ?? false;
  const refer = (where: string, kind: SiteKind, singular: string, name: string | undefined) => {
    if (name !== undefined && !has(kind, name)) problems.push(`${where}: no ${singular} named "${name}"`);
  };

  each('locations', (l, i) => {
    if (l.timeZone !== undefined && !isValidTimeZone(l.timeZone))
      problems.push(`${label('locations', i, l, '.timeZone')}: "${l.timeZone}" is not a known IANA time zone`);
    if (l.monitoringPin !== undefined && !PIN_PATTERN.test(l.monitoringPin))
      problems.push(`${label('locations', i, l, '.monitoringPin')}: must be 4 to 8 digits`);
  });
  site.permissionGroups?.forEach((g, i) => {
    g.functionality?.forEach((f, k) => {
      if (!(FUNCTIONALITIES as readonly string[]).includes(f))
        problems.push(`${label('permissionGroups', i, g, '.functionality')}[${k}]: "${f}" is not a functionality`);
    });
    g.locations?.forEach((l, k) => refer(`${label('permissionGroups', i, g, '.locations')}[${k}]`, 'locations', 'location', l));
  });
  const emails = new Set<string>();
  site.users?.forEach((u, i) => {
    if (u.email !== undefined && !EMAIL.test(u.email)) problems.push(`${label('users', i, u, '.email')}: "${u.email}" is not an e-mail address`);
    const email = u.email?.trim().toLowerCase();
    if (email && emails.has(email)) problems.push(`${label('users', i, u, '.email')}: another user has the e-mail address "${u.email}"`);
    if (email) emails.add(email);
    refer(`${label('users', i, u, '.group')}`, 'permissionGroups', 'permission group', u.group);
    for (const [field, value] of Object.entries(u.metadata ?? {})) {
      const template = site.userMetadataTemplates?.find((t) => t.name === field);
      if (!template) problems.push(`${label('users', i, u, `.metadata.${field}`)}: no user metadata template named "${field}"`);
      else metadataProblem(template, value, (why) => problems.push(`${label('users', i, u, `.metadata.${field}`)}: ${why}`));
    }
  });
  each('schedules', (s, i) => {
    const intervals = s.intervals.map((x) => ({ minuteOfWeekStart: x.start, minuteOfWeekStop: x.stop }));
    // The message names the interval within the schedule (`intervals[1]: overlaps intervals[0]`): prefix the entry once.
    const problem = intervalProblem(intervals, 'intervals');
    const parts = problem ? /^([^:]+): (.*)$/s.exec(problem) : null;
    if (parts) problems.push(`${label('schedules', i, s, `.${parts[1]}`)}: ${parts[2]}`);
  });
  each('cameraPolicies', (p, i) => {
    p.schedules.forEach((s, k) => refer(label('cameraPolicies', i, p, `.schedules[${k}].schedule`), 'schedules', 'schedule', s.schedule));
  });
  each('cameras', (c, i) => refer(label('cameras', i, c, '.policy'), 'cameraPolicies', 'camera policy', c.policy));
  each('rmas', (r, i) => refer(label('rmas', i, r, '.camera'), 'cameras', 'camera', r.camera));
  for (const kind of DEVICE_SITE_KINDS) {
    each(kind, (d, i) => {
      refer(`${label(kind, i, d, '.location')}`, 'locations', 'location', d.location);
      if (d.macAddress !== undefined && !normaliseMac(d.macAddress))
        problems.push(`${label(kind, i, d, '.macAddress')}: "${d.macAddress}" is not a MAC address`);
    });
  }
  each('sensors', (s, i) => {
    if (!Object.hasOwn(SENSOR_KINDS, s.kind)) problems.push(`${label('sensors', i, s, '.kind')}: must be one of ${Object.keys(SENSOR_KINDS).join(', ')}`);
    if (s.thresholds && s.kind !== 'environmental' && s.kind !== 'climate')
      problems.push(`${label('sensors', i, s, '.thresholds')}: only environmental sensors have thresholds`);
  });
  each('doors', (d, i) => {
    const at = (field: string) => label('doors', i, d, field);
    refer(at('.location'), 'locations', 'location', d.location);
    refer(at('.schedule'), 'schedules', 'schedule', d.schedule);
    refer(at('.controller'), 'doorControllers', 'door controller', d.controller);
    d.cameras?.forEach((c, k) => refer(at(`.cameras[${k}]`), 'cameras', 'camera', c));
    d.access?.forEach((u, k) => refer(at(`.access[${k}]`), 'users', 'user', u));
    if (d.controller === undefined && has('doorControllers', controllerNameFor(d.name))) {
      problems.push(`${at('.controller')}: a door controller named "${controllerNameFor(d.name)}" is declared; name it here or rename it`);
    }
  });
  each('accessGroups', (g, i) => {
    refer(label('accessGroups', i, g, '.location'), 'locations', 'location', g.location);
    g.members?.forEach((u, k) => refer(label('accessGroups', i, g, `.members[${k}]`), 'users', 'user', u));
  });
  for (const kind of ['accessGrants', 'accessRevocations'] as const) {
    each(kind, (r, i) => {
      const at = (field: string) => label(kind, i, r, field);
      refer(at('.location'), 'locations', 'location', r.location);
      refer(at('.schedule'), 'schedules', 'schedule', r.schedule);
      r.users?.forEach((u, k) => refer(at(`.users[${k}]`), 'users', 'user', u));
      r.groups?.forEach((g, k) => refer(at(`.groups[${k}]`), 'accessGroups', 'access group', g));
      r.doors?.forEach((d, k) => refer(at(`.doors[${k}]`), 'doors', 'door', d));
      r.elevatorLandings?.forEach((l, k) => refer(at(`.elevatorLandings[${k}]`), 'elevatorLandings', 'elevator landing', l));
    });
  }
  each('doors', (d, i) => {
    if (d.access?.length && has('accessGrants', doorAccessGrantName(d.name)))
      problems.push(`${label('doors', i, d, '.access')}: it is seeded as the grant "${doorAccessGrantName(d.name)}", which accessGrants declares too`);
  });
  each('thirdPartyCameraDiscoveries', (t, i) => {
    if (!normaliseMac(t.macAddress)) problems.push(`${label('thirdPartyCameraDiscoveries', i, t, '.macAddress')}: "${t.macAddress}" is not a MAC address`);
  });
  each('partnerHardware', (h, i) => {
    if (h.macAddress !== undefined && !normaliseMac(h.macAddress))
      problems.push(`${label('partnerHardware', i, h, '.macAddress')}: "${h.macAddress}" is not a MAC address`);
  });
  each('shipments', (s, i) => {
    if (!EMAIL.test(s.email)) problems.push(`${label('shipments', i, s, '.email')}: "${s.email}" is not an e-mail address`);
  });
  each('guests', (g, i) => {
    if (!EMAIL.test(g.email)) problems.push(`guests[${i}].email: "${g.email}" is not an e-mail address`);
  });
  try {
    accessLockdownProblems(site, refer, problems);
  } catch {
    // a mistyped entry: its type errors say what is wrong
  }
  return problems;
}

/** Checks a user's value against its template as the metadata operations do; reports the reason it is refused. */
function metadataProblem(t: NonNullable<SiteFile['userMetadataTemplates']>[number], value: string, report: (why: string) => void): void {
  const template = {
    uuid: '',
    orgUuid: '',
    fieldName: t.name,
    scimFieldName: null,
    valueType: (t.valueType ?? 'TEXT') as ValueType,
    allowedValues: t.allowedValues ?? null,
    maxLength: t.maxLength ?? MAX_VALUE_LENGTH,
    createdAtMillis: 0,
    updatedAtMillis: 0,
  };
  try {
    checkValue(template, value);
  } catch (e) {
    report((e as Error).message.replace(`${t.name}: `, ''));
  }
}

/** Every problem of a site file (empty when it is valid), each naming the entry and the field. */
export function siteFileProblems(site: unknown): string[] {
  if (!site || typeof site !== 'object' || Array.isArray(site)) return ['site file: must be a mapping of kinds (locations, cameras, doors, ...)'];
  // Every wrong entry at once: the type errors, then the rules on the entries that are well typed.
  const { problems, badPaths } = shapeProblems(site as Record<string, unknown>);
  const mistyped = (path: string) => badPaths.some((bad) => path === bad || path.startsWith(`${bad}.`) || path.startsWith(`${bad}[`));
  return [...problems, ...ruleProblems(site as SiteFile).filter((problem) => !mistyped(problemPath(problem)))];
}
