import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Session } from '../api';
import type { ChangeStream } from '../stream';
import { Table } from './table';

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

interface Org {
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
  const sensors: Sensor[] = [
    ...list<Raw>(buttons, 'states').map((b) => ({
      uuid: String(b.sensorUuid),
      name: String(b.name),
      kind: 'Button',
      locationUuid: (b.locationUuid as string) ?? null,
      state: String(b.health ?? ''),
    })),
    ...list<Raw>(climate, 'minimalEnvironmentalGatewayStates').map((c) => ({
      uuid: String(c.uuid ?? c.sensorUuid),
      name: String(c.name),
      kind: 'Climate',
      locationUuid: (c.locationUuid as string) ?? null,
      state:
        ['tempC', 'humidity', 'co2']
          .map((k) => (c[k] !== undefined && c[k] !== null ? `${k} ${String(c[k])}` : ''))
          .join(' ')
          .trim() || String(c.health ?? ''),
    })),
  ];
  return {
    locations: list<Location>(locations, 'locations'),
    cameras: list<Camera>(cameras, 'cameraStates'),
    doors: list<{ door: Door }>(doors, 'accessControlledDoors').map((d) => d.door),
    sensors,
    users: list<User>(users, 'users'),
  };
}

/** The entities whose changes this view shows: a change of one reloads the lists. */
const SHOWN = /^(DOOR|CAMERA|LOCATION|USER|SENSOR|BUTTON|CLIMATE|ENVIRONMENTAL)/;

export function OrganizationView({ session, stream }: { session: Session; stream: ChangeStream | null }) {
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
          { label: 'Name', value: (d) => d.name },
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
          { label: 'Name', value: (c) => c.name },
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
          { label: 'Name', value: (s) => s.name },
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
          { label: 'Name', value: (l) => l.name },
          { label: 'Time zone', value: (l) => l.tz },
          { label: 'City', value: (l) => [l.city, l.countryCode].filter(Boolean).join(', ') },
        ]}
      />
      <Table
        id="users"
        caption="Users"
        rows={org.users}
        columns={[
          { label: 'Name', value: (u) => u.name },
          { label: 'Email', value: (u) => u.email ?? '' },
          { label: 'Status', value: (u) => u.status },
        ]}
      />
    </div>
  );
}
