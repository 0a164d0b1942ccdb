import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Session } from '../api';
import type { ChangeStream } from '../stream';
import { Table } from './table';
import { CameraMedia } from './camera';
import { DetailLink, RecordDetail } from './detail';

interface Location {
  uuid: string;
  name: string;
  tz: string;
  city: string | null;
  countryCode: string | null;
}
interface Camera {
  uuid: string;
  name: string;
  locationUuid: string;
  connectionStatus: string;
  healthStatus: string;
  serialNumber: string | null;
  firmwareVersion: string | null;
}
interface Door {
  uuid: string;
  name: string;
  locationUuid: string;
  lockState: string;
  position: string;
  relockAtMillis: number | null;
  controllerOnline: boolean;
}
interface Sensor {
  uuid: string;
  name: string;
  kind: string;
  locationUuid: string | null;
  state: string;
}
interface User {
  uuid: string;
  name: string;
  email: string | null;
  status: string;
}

/** A record's detail: its kind in the console's addresses (`#/org/<kind>/<uuid>`). */
export type OrgKind = 'door' | 'camera' | 'sensor' | 'location' | 'user';

interface Org {
  /** Every record as the API answered it, by `<kind>/<uuid>`, for the detail pages. */
  raw: Map<string, Raw>;
  locations: Location[];
  cameras: Camera[];
  doors: Door[];
  sensors: Sensor[];
  users: User[];
}

type Raw = Record<string, unknown>;
const list = <T,>(answer: Raw, field: string): T[] => (Array.isArray(answer[field]) ? (answer[field] as T[]) : []);

async function loadOrg(session: Session): Promise<Org> {
  const [locations, cameras, doors, buttons, climate, users] = await Promise.all([
    api(session, '/api/location/getLocations'),
    api(session, '/api/camera/getMinimalCameraStateList'),
    api(session, '/api/component/findMinimalStateAccessControlledDoors'),
    api(session, '/api/button/getMinimalButtonStateList'),
    api(session, '/api/climate/getMinimalEnvironmentalGatewayStates'),
    api(session, '/api/user/getUsersInOrg'),
  ]);
  const raw = new Map<string, Raw>();
  const keep = <T extends { uuid: string }>(kind: OrgKind, rows: T[], records: Raw[] = rows as unknown as Raw[]): T[] => {
    rows.forEach((row, i) => raw.set(`${kind}/${row.uuid}`, records[i]));
    return rows;
  };
  const buttonStates = list<Raw>(buttons, 'states');
  const climateStates = list<Raw>(climate, 'minimalEnvironmentalGatewayStates');
  const sensors: Sensor[] = [
    ...buttonStates.map((b) => ({
      uuid: String(b.sensorUuid),
      name: String(b.name),
      kind: 'Button',
      locationUuid: (b.locationUuid as string) ?? null,
      state: `health ${String(b.health ?? 'unknown')}`,
    })),
    ...climateStates.map((c) => ({
      uuid: String(c.deviceUuid),
      name: String(c.name),
      kind: 'Climate',
      locationUuid: (c.locationUuid as string) ?? null,
      state: latestReading(c),
    })),
  ];
  const doorRows = list<Raw>(doors, 'accessControlledDoors');
  return {
    raw,
    locations: keep('location', list<Location>(locations, 'locations')),
    cameras: keep('camera', list<Camera>(cameras, 'cameraStates')),
    doors: keep(
      'door',
      doorRows.map((d) => d.door as Door),
      doorRows,
    ),
    sensors: keep('sensor', sensors, [...buttonStates, ...climateStates]),
    users: keep('user', list<User>(users, 'users')),
  };
}

/** The readings an environmental gateway's minimal state carries, and when they were taken. */
const READINGS: [string, string][] = [
  ['tempC', '°C'],
  ['relHumid', '% RH'],
  ['co2Ppm', 'ppm CO₂'],
  ['pm2p5', 'µg/m³ PM2.5'],
  ['vocIdx', 'VOC index'],
  ['airQualityIndex', 'AQI'],
];
function latestReading(state: Raw): string {
  const values = READINGS.filter(([field]) => typeof state[field] === 'number').map(([field, unit]) => `${String(state[field])} ${unit}`);
  if (values.length === 0) return 'no reading yet';
  const at = typeof state.timestampMs === 'number' ? ` at ${new Date(state.timestampMs).toLocaleTimeString()}` : '';
  return `${values.join(', ')}${at}`;
}

const ORG_KINDS: readonly string[] = ['door', 'camera', 'sensor', 'location', 'user'] satisfies OrgKind[];

/** The entities whose changes this view shows: a change of one reloads the lists. */
const SHOWN = /^(DOOR|CAMERA|LOCATION|USER|SENSOR|BUTTON|CLIMATE|ENVIRONMENTAL)/;

export function OrganizationView({ session, stream, detail }: { session: Session; stream: ChangeStream | null; detail: { kind: string; id: string } | null }) {
  const [org, setOrg] = useState<Org | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');

  const reload = () =>
    loadOrg(session).then(
      (o) => {
        setOrg(o);
        setError('');
      },
      (e) => setError(errorText(e)),
    );
  useEffect(() => {
    void reload();
  }, [session.apiKey]);
  // Live: a change of a shown record (a door relocking by itself) reloads the lists, at most twice a second.
  useEffect(() => {
    if (!stream) return;
    let seen = stream.events[0]?.seq ?? 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = stream.subscribe(() => {
      const fresh = stream.events.filter((e) => e.seq > seen);
      seen = stream.events[0]?.seq ?? seen;
      if (!timer && fresh.some((e) => SHOWN.test(e.entity))) {
        timer = setTimeout(() => {
          timer = null;
          void reload();
        }, 500);
      }
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [stream]);

  const unlock = async (door: Door) => {
    setStatus(`Unlocking ${door.name}…`);
    try {
      await api(session, '/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: door.uuid });
      setStatus(`${door.name} unlocked: it relocks by itself after its unlock time.`);
      await reload();
    } catch (e) {
      setStatus(`Unlocking ${door.name} failed: ${errorText(e)}`);
    }
  };

  if (error) return <p role="alert" class="error">{`Could not read the organization: ${error}`}</p>;
  if (!org) return <p aria-live="polite">Loading the organization…</p>;
  const where = (uuid: string | null) => org.locations.find((l) => l.uuid === uuid)?.name ?? '';
  const link = (kind: OrgKind) => (row: { uuid: string; name: string }) => (
    <DetailLink view="org" kind={kind} uuid={row.uuid}>
      {row.name}
    </DetailLink>
  );
  const nameColumn = (kind: OrgKind) => ({ label: 'Name', value: link(kind), text: (row: { name: string }) => row.name });
  if (detail && ORG_KINDS.includes(detail.kind)) {
    const kind = detail.kind as OrgKind;
    const record = org.raw.get(`${kind}/${detail.id}`) ?? null;
    // A door's record is its list entry (`{ door, ... }`); every other record carries its name.
    const door = kind === 'door' ? org.doors.find((d) => d.uuid === detail.id) : undefined;
    const name = door?.name ?? (typeof record?.name === 'string' ? record.name : detail.id);
    return (
      <RecordDetail title={name} kind={kind} record={record} back={{ href: '#/org', label: 'Organization' }}>
        <p role="status" aria-live="polite" class="status">
          {status}
        </p>
        {door && (
          <p>
            {`Lock ${door.lockState}, position ${door.position}. `}
            <button type="button" aria-label={`Unlock ${door.name}`} onClick={() => void unlock(door)}>
              Unlock
            </button>
          </p>
        )}
        {kind === 'camera' && record && <CameraMedia session={session} cameraUuid={detail.id} name={name} />}
      </RecordDetail>
    );
  }
  return (
    <div class="org">
      <h1>{session.orgName ?? 'Organization'}</h1>
      <p class="muted">
        Organization <code>{session.orgUuid}</code>.{' '}
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </p>
      <p role="status" aria-live="polite" class="status">
        {status}
      </p>
      <Table
        id="doors"
        caption="Doors"
        rows={org.doors}
        columns={[
          nameColumn('door'),
          { label: 'Location', value: (d) => where(d.locationUuid) },
          { label: 'Lock', value: (d) => <span class={`state state-${d.lockState.toLowerCase()}`}>{d.lockState}</span>, text: (d) => d.lockState },
          { label: 'Position', value: (d) => d.position },
          {
            label: 'Actions',
            value: (d) => (
              <button type="button" aria-label={`Unlock ${d.name}`} onClick={() => void unlock(d)}>
                Unlock
              </button>
            ),
            text: () => '',
          },
        ]}
      />
      <Table
        id="cameras"
        caption="Cameras"
        rows={org.cameras}
        columns={[
          nameColumn('camera'),
          { label: 'Location', value: (c) => where(c.locationUuid) },
          { label: 'Connection', value: (c) => c.connectionStatus },
          { label: 'Health', value: (c) => c.healthStatus },
          { label: 'Serial', value: (c) => c.serialNumber ?? '' },
          { label: 'Id', value: (c) => <code>{c.uuid}</code>, text: (c) => c.uuid },
        ]}
      />
      <Table
        id="sensors"
        caption="Sensors"
        rows={org.sensors}
        columns={[
          nameColumn('sensor'),
          { label: 'Kind', value: (s) => s.kind },
          { label: 'Location', value: (s) => where(s.locationUuid) },
          { label: 'Latest', value: (s) => s.state },
        ]}
      />
      <Table
        id="locations"
        caption="Locations"
        rows={org.locations}
        columns={[
          nameColumn('location'),
          { label: 'Time zone', value: (l) => l.tz },
          { label: 'City', value: (l) => [l.city, l.countryCode].filter(Boolean).join(', ') },
        ]}
      />
      <Table
        id="users"
        caption="Users"
        rows={org.users}
        columns={[nameColumn('user'), { label: 'Email', value: (u) => u.email ?? '' }, { label: 'Status', value: (u) => u.status }]}
      />
    </div>
  );
}
