import { useEffect, useState } from 'preact/hooks';
import { control, errorText, type Session } from '../api';

interface Entry {
  id: number;
  at: number;
  method: string;
  path: string;
  query: string;
  orgUuid: string | null;
  keyId: string | null;
  status: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  responseBody: unknown;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The call as a curl command; the masked secrets become shell variables. */
export function curlOf(e: Entry): string {
  const url = `${location.origin}${e.path}${e.query ? `?${e.query}` : ''}`;
  const parts = ['curl', '-X', e.method, quote(url)];
  for (const [name, value] of Object.entries(e.requestHeaders)) {
    if (name === 'x-auth-apikey') parts.push('-H', `"x-auth-apikey: $GATEHOUSE_API_KEY"`);
    else if (name === 'authorization') parts.push('-H', `"authorization: Bearer $GATEHOUSE_ADMIN_TOKEN"`);
    else parts.push('-H', quote(`${name}: ${value}`));
  }
  if (e.method !== 'GET' && e.requestBody !== null && e.requestBody !== undefined) {
    parts.push('--data', quote(typeof e.requestBody === 'string' ? e.requestBody : JSON.stringify(e.requestBody)));
  }
  return parts.join(' ');
}

export function JournalView({ session }: { session: Session }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [size, setSize] = useState(0);
  const [path, setPath] = useState('');
  const [status, setStatus] = useState('');
  const [org, setOrg] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');

  const load = async () => {
    const q = new URLSearchParams();
    if (path.trim()) q.set('path', path.trim());
    if (status.trim()) q.set('status', status.trim());
    if (org.trim()) q.set('org', org.trim());
    q.set('limit', '200');
    try {
      const r = await control<{ requests: Entry[]; size: number }>(session, 'GET', `/requests?${q.toString()}`);
      setEntries(r.requests);
      setSize(r.size);
      setError('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const copy = async (e: Entry) => {
    const text = curlOf(e);
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied the curl command.');
    } catch {
      setNote('The clipboard is not available here: copy the command shown below.');
    }
  };

  return (
    <div class="journal">
      <h1>Request journal</h1>
      <p class="muted">The last {size} calls this server answered, newest first; secrets masked.</p>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void load();
        }}
      >
        <label>
          <span>Path contains</span>
          <input id="journal-path" type="search" value={path} onInput={(e) => setPath(e.currentTarget.value)} />
        </label>
        <label>
          <span>Status (200, 4xx)</span>
          <input id="journal-status" type="search" size={5} value={status} onInput={(e) => setStatus(e.currentTarget.value)} />
        </label>
        <label>
          <span>Organization</span>
          <input id="journal-org" type="search" value={org} onInput={(e) => setOrg(e.currentTarget.value)} />
        </label>
        <button type="submit">Filter</button>
        <button
          type="button"
          onClick={() =>
            void control(session, 'DELETE', '/requests').then(
              () => load(),
              (e) => setError(errorText(e)),
            )
          }
        >
          Clear journal
        </button>
      </form>
      <p role="status" aria-live="polite">
        {note}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {entries.length === 0 ? (
        <p class="muted">No call matches.</p>
      ) : (
        <ol class="entries" aria-label="Calls">
          {entries.map((e) => (
            <li key={e.id} class={`entry status-${Math.floor(e.status / 100)}xx`} data-path={e.path}>
              <button type="button" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                <time>{new Date(e.at).toLocaleTimeString()}</time> <strong>{e.method}</strong> <span class="path">{e.path}</span>{' '}
                <span class="code">{e.status}</span> <span class="muted">{e.durationMs} ms</span>
              </button>
              {open === e.id && (
                <div class="detail">
                  <p>
                    Organization <code>{e.orgUuid ?? '(none)'}</code>, key <code>{e.keyId ?? '(none)'}</code>
                  </p>
                  <button type="button" onClick={() => void copy(e)}>
                    Copy as curl
                  </button>
                  <pre class="curl" aria-label="curl command">
                    {curlOf(e)}
                  </pre>
                  <h2>Request</h2>
                  <pre>{JSON.stringify(e.requestBody, null, 2)}</pre>
                  <h2>Response</h2>
                  <pre>{JSON.stringify(e.responseBody, null, 2)}</pre>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
