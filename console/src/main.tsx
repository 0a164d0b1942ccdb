import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, clearSession, control, errorText, loadSession, saveSession, type Session } from './api';
import { ChangeStream } from './stream';
import { OrganizationView } from './views/organization';
import { StreamView } from './views/stream';
import { SimulatorView } from './views/simulator';
import { JournalView } from './views/journal';
import { OperationsView } from './views/operations';
import { AlertsView } from './views/alerts';
import { AutomationView } from './views/automation';
import './style.css';

const VIEWS = [
  { id: 'org', label: 'Organization', needs: 'key' },
  { id: 'automation', label: 'Automation', needs: 'key' },
  { id: 'stream', label: 'Stream', needs: 'key' },
  { id: 'alerts', label: 'Alerts', needs: 'key' },
  { id: 'simulator', label: 'Simulator', needs: 'admin' },
  { id: 'journal', label: 'Journal', needs: 'admin' },
  { id: 'operations', label: 'Operations', needs: 'admin' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

/** The view and, for a record's detail, its kind and id: `#/<view>[/<kind>/<id>]`. */
interface Route {
  view: ViewId;
  detail: { kind: string; id: string } | null;
}

function currentRoute(): Route {
  const [id, kind, uuid] = location.hash.replace(/^#\/?/, '').split('?')[0].split('/');
  const view = (VIEWS.find((v) => v.id === id)?.id ?? 'org') as ViewId;
  return { view, detail: kind && uuid ? { kind, id: decodeURIComponent(uuid) } : null };
}

function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    if (!apiKey.trim() && !adminToken.trim()) return setError('Give an API key, the admin token, or both.');
    setBusy(true);
    try {
      const session: Session = {};
      if (apiKey.trim()) {
        session.apiKey = apiKey.trim();
        const org = await api<{ orgUuid?: string; org?: { name?: string } }>(session, '/api/org/getOrgV2');
        session.orgUuid = org.orgUuid;
        session.orgName = org.org?.name;
      }
      if (adminToken.trim()) {
        session.adminToken = adminToken.trim();
        await control(session, 'GET', '/requests?limit=1');
      }
      saveSession(session);
      onSignedIn(session);
    } catch (err) {
      setError(`Sign-in failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Gatehouse console</h1>
      <p>Sign in with an organization's API key (its views), the admin token (the control plane), or both. They are kept in this tab only.</p>
      <form onSubmit={(e) => void submit(e)} aria-describedby={error ? 'signin-error' : undefined}>
        <label for="apikey">Organization API key</label>
        <input id="apikey" name="apikey" type="password" autocomplete="off" value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
        <label for="admintoken">Admin token</label>
        <input id="admintoken" name="admintoken" type="password" autocomplete="off" value={adminToken} onInput={(e) => setAdminToken(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p id="signin-error" role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session>(loadSession);
  const [route, setRoute] = useState<Route>(currentRoute);
  const view = route.view;
  const [stream, setStream] = useState<ChangeStream | null>(null);

  useEffect(() => {
    // A new page: the keyboard goes on from its content (the link followed may be gone), from the top.
    const onHash = () => {
      setRoute(currentRoute());
      window.scrollTo(0, 0);
      document.getElementById('main')?.focus({ preventScroll: true });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // One stream per signed-in organization, kept while the views change, so that no change is missed.
  useEffect(() => {
    if (!session.apiKey || !session.orgUuid) return;
    const s = new ChangeStream(session);
    setStream(s);
    return () => {
      s.close();
      setStream(null);
    };
  }, [session.apiKey, session.orgUuid]);

  if (!session.apiKey && !session.adminToken) return <SignIn onSignedIn={setSession} />;

  const signOut = () => {
    clearSession();
    setSession({});
  };
  const spec = VIEWS.find((v) => v.id === view)!;
  const allowed = spec.needs === 'key' ? Boolean(session.apiKey) : Boolean(session.adminToken);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Gatehouse</span>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.id}>
                <a href={`#/${v.id}`} aria-current={v.id === view ? 'page' : undefined}>
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.orgName ? `${session.orgName}` : 'no organization'}
          {session.adminToken ? ' · admin' : ''}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {!allowed ? (
          <p role="alert" class="error">
            {spec.needs === 'key'
              ? 'This view needs an organization API key: sign out and sign in with one.'
              : 'This view needs the admin token: sign out and sign in with it.'}
          </p>
        ) : view === 'org' ? (
          <OrganizationView session={session} stream={stream} detail={route.detail} />
        ) : view === 'automation' ? (
          <AutomationView session={session} detail={route.detail} />
        ) : view === 'stream' ? (
          <StreamView stream={stream} detail={route.detail} />
        ) : view === 'alerts' ? (
          <AlertsView session={session} detail={route.detail} />
        ) : view === 'simulator' ? (
          <SimulatorView session={session} />
        ) : view === 'journal' ? (
          <JournalView session={session} />
        ) : (
          <OperationsView session={session} onUseKey={(s) => setSession(s)} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
