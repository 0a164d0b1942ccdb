import { useEffect, useState } from 'preact/hooks';
import { control, errorText, type Session } from '../api';

interface Property {
  type?: string;
  enum?: string[];
  description?: string;
  pattern?: string;
  anyOf?: Property[];
}
interface SimulateEvent {
  event: string;
  body: { required?: string[]; properties?: Record<string, Property> };
}

function kindOf(p: Property): 'enum' | 'boolean' | 'number' | 'text' {
  if (p.enum) return 'enum';
  const type = p.type ?? p.anyOf?.find((a) => a.type)?.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'number' || type === 'integer') return 'number';
  return 'text';
}

/** A form per device event kind: POST /_gatehouse/simulate/<event>, the route `gatehouse simulate <event>` calls. */
export function SimulatorView({ session }: { session: Session }) {
  const [events, setEvents] = useState<SimulateEvent[]>([]);
  const [chosen, setChosen] = useState('');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [result, setResult] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    control<{ events: SimulateEvent[] }>(session, 'GET', '/simulate').then(
      (r) => {
        setEvents(r.events);
        setChosen((c) => c || r.events[0]?.event || '');
      },
      (e) => setError(errorText(e)),
    );
  }, [session.adminToken]);
  const event = events.find((e) => e.event === chosen);
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult('');
    setError('');
    const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== false));
    try {
      const answer = await control(session, 'POST', `/simulate/${chosen}`, body);
      setResult(JSON.stringify(answer, null, 2));
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div class="simulator">
      <h1>Simulator</h1>
      <p class="muted">
        Raise a device event as <code>gatehouse simulate</code> does; its changes appear at once in the stream view.
      </p>
      <label class="field">
        <span>Event</span>
        <select
          id="sim-event"
          value={chosen}
          onChange={(e) => {
            setChosen(e.currentTarget.value);
            setValues({});
            setResult('');
            setError('');
          }}
        >
          {events.map((e) => (
            <option key={e.event} value={e.event}>
              {e.event}
            </option>
          ))}
        </select>
      </label>
      {event && (
        <form onSubmit={(e) => void submit(e)} aria-label={`Simulate ${event.event}`}>
          {Object.entries(event.body.properties ?? {}).map(([name, p]) => {
            const required = event.body.required?.includes(name) ?? false;
            const id = `sim-${name}`;
            const kind = kindOf(p);
            const set = (v: string | boolean) => setValues({ ...values, [name]: v });
            return (
              <div class="field" key={`${event.event}-${name}`}>
                <label for={id}>
                  {name}
                  {required ? ' (required)' : ''}
                </label>
                {kind === 'enum' ? (
                  <select id={id} name={name} value={String(values[name] ?? '')} onChange={(e) => set(e.currentTarget.value)} required={required}>
                    <option value="">(choose)</option>
                    {p.enum!.map((v) => (
                      <option key={v} value={v}>
                        {v}
                      </option>
                    ))}
                  </select>
                ) : kind === 'boolean' ? (
                  <input id={id} name={name} type="checkbox" checked={values[name] === true} onChange={(e) => set(e.currentTarget.checked)} />
                ) : (
                  <input
                    id={id}
                    name={name}
                    type={kind === 'number' ? 'number' : 'text'}
                    step="any"
                    value={String(values[name] ?? '')}
                    onInput={(e) => set(e.currentTarget.value)}
                    required={required}
                    aria-describedby={p.description ? `${id}-help` : undefined}
                  />
                )}
                {p.description && (
                  <small id={`${id}-help`} class="muted">
                    {p.description}
                  </small>
                )}
              </div>
            );
          })}
          <button type="submit">Raise {event.event}</button>
        </form>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {result && (
        <section aria-label="Result">
          <h2>Result</h2>
          <pre id="sim-result">{result}</pre>
        </section>
      )}
    </div>
  );
}
