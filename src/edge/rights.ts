/**
 * What a caller may do, and what an operation needs: pure functions, no store and no Fastify, so that the
 * HTTP edge decides every call from one precomputed declaration per operation and a cached Rights.
 */

export const FUNCTIONALITIES = [
  'DEVICE_ADMINISTRATION',
  'ORG_ADMINISTRATION',
  'AUTH_ADMINISTRATION',
  'FIRMWARE_ADMINISTRATION',
  'DOOR_ACCESS_ADMINISTRATION',
  'CAMERA_ADMINISTRATION',
  'REGISTER_DEVICES',
  'DELETE_DEVICES',
  'LOCATION_ADMINISTRATION',
  'POLICY_ADMINISTRATION',
  'USER_ADMINISTRATION',
  'REPORT_ADMINISTRATION',
  'NOTIFICATION_ADMINISTRATION',
  'LICENSE_ADMINISTRATION',
  'RECEIVE_EMAILS',
  'MANAGE_FACES',
  'MANAGE_LICENSEPLATES',
  'API_ADMINISTRATION',
  'INTEGRATION_ADMINISTRATION',
  'DATA_EXFILTRATION',
  'ALERT_MONITORING_ADMINISTRATION',
  'ALERT_MONITORING_VIEWONLY',
  'GUEST_MANAGEMENT_ADMINISTRATION',
  'GUEST_MANAGEMENT_VIEWONLY',
  'CLIP_MANAGEMENT',
  'VIEW_SAVED_VIDEO',
  'VIEW_AND_MANAGE_SAVED_VIDEO',
  'CLLM_ADMINISTRATION',
  'UNKNOWN',
] as const;
export type Functionality = (typeof FUNCTIONALITIES)[number];

/** What a partner permission group's users may do as the partner (the reference's partner functionality list). */
export const PARTNER_FUNCTIONALITIES = [
  'CREATE_CLIENT',
  'DELETE_CLIENT',
  'DEAL_ADMINISTRATION',
  'REMOTE_REGISTER_DEVICE',
  'ORG_ADMINISTRATION',
  'AUTH_ADMINISTRATION',
  'DOOR_ACCESS_ADMINISTRATION',
  'USER_ADMINISTRATION',
  'REPORT_ADMINISTRATION',
  'NOTIFICATION_ADMINISTRATION',
  'LICENSE_ADMINISTRATION',
  'RECEIVE_EMAILS',
  'API_ADMINISTRATION',
  'INTEGRATION_ADMINISTRATION',
  'DATA_EXFILTRATION',
  'CLIP_MANAGEMENT',
  'UNKNOWN',
] as const;
export type PartnerFunctionality = (typeof PARTNER_FUNCTIONALITIES)[number];

export const ACCESS_LEVELS = ['READONLY', 'ADMIN', 'LIVEONLY'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * What an operation needs: `read` any member may call, `write` needs the functionality (or super admin),
 * `self` every authenticated user may call (who am I, my permissions).
 */
export interface OperationPermission {
  kind: 'read' | 'write' | 'self';
  /** A customer functionality; for the partner operations (`access: 'partner'`), a partner one. */
  functionality: Functionality | PartnerFunctionality;
}

/**
 * What a caller may do: everything, or the group's functionality within its locations (location uuid to
 * level; null: every location, at ADMIN). A READONLY or LIVEONLY location is seen, never written.
 * `denied`: nothing at all (a partner group that does not reach this client organization).
 */
export type Rights =
  { superAdmin: true } | { superAdmin: false; functionality: ReadonlySet<string>; locations: ReadonlyMap<string, AccessLevel> | null; denied?: true };

export const FULL_RIGHTS: Rights = { superAdmin: true };

const READ_VERB = /^(get|find|list|search|query|count|check|is|has|download|export|lookup|fetch|view|describe|stream)(?=[A-Z_]|$)/;

/** The functionality that the writes of each URL family (`/api/<family>/...`) need. */
const FAMILY_FUNCTIONALITY: Record<string, Functionality> = {
  location: 'LOCATION_ADMINISTRATION',
  user: 'USER_ADMINISTRATION',
  permission: 'USER_ADMINISTRATION',
  customer: 'USER_ADMINISTRATION',
  org: 'ORG_ADMINISTRATION',
  partner: 'ORG_ADMINISTRATION',
  accesscontrol: 'DOOR_ACCESS_ADMINISTRATION',
  camera: 'CAMERA_ADMINISTRATION',
  video: 'CAMERA_ADMINISTRATION',
  videowall: 'CAMERA_ADMINISTRATION',
  policy: 'POLICY_ADMINISTRATION',
  rules: 'POLICY_ADMINISTRATION',
  report: 'REPORT_ADMINISTRATION',
  event: 'REPORT_ADMINISTRATION',
  integrations: 'INTEGRATION_ADMINISTRATION',
  webhook: 'INTEGRATION_ADMINISTRATION',
  faceRecognition: 'MANAGE_FACES',
  alertmonitoring: 'ALERT_MONITORING_ADMINISTRATION',
  apikey: 'API_ADMINISTRATION',
};

/**
 * The default declaration of an operation that does not declare one: a read when its operationId starts
 * with a read verb (get, find, list, search, ...), else a write; the functionality from its URL family.
 */
export function derivePermission(path: string, operationId: string): OperationPermission {
  const family = path.split('/')[2] ?? '';
  return { kind: READ_VERB.test(operationId) ? 'read' : 'write', functionality: FAMILY_FUNCTIONALITY[family] ?? 'DEVICE_ADMINISTRATION' };
}

/** Whether rights allow an operation (locations are checked separately, on the records it names). */
export function allows(rights: Rights, permission: OperationPermission): boolean {
  if (rights.superAdmin) return true;
  if (rights.denied) return false;
  if (permission.kind !== 'write') return true;
  return rights.functionality.has(permission.functionality);
}

/** The locations a caller is limited to (uuid to level); null: every location. */
export function locationScope(rights: Rights): ReadonlyMap<string, AccessLevel> | null {
  return rights.superAdmin ? null : rights.locations;
}

const LOCATION_FIELDS = ['locationUuid', 'locationIdentifier', 'parentLocationUuid'] as const;

/** The location uuids a request body names (in the location family, also the location's own uuid). */
export function namedLocations(path: string, body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as Record<string, unknown>;
  const named: unknown[] = LOCATION_FIELDS.map((f) => b[f]);
  if (Array.isArray(b.locationUuids)) named.push(...b.locationUuids);
  if (path.startsWith('/api/location/')) named.push(b.uuid, (b.location as Record<string, unknown> | undefined)?.uuid);
  return named.filter((v): v is string => typeof v === 'string');
}

/** Whether a caller limited to `scope` may act on every named location: see it for a read, ADMIN for a write. */
export function allowsLocations(scope: ReadonlyMap<string, AccessLevel>, permission: OperationPermission, named: readonly string[]): boolean {
  return named.every((uuid) => {
    const level = scope.get(uuid);
    return level !== undefined && (permission.kind !== 'write' || level === 'ADMIN');
  });
}
