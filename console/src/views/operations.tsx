import { useState } from 'preact/hooks';
import { api, control, errorText, saveSession, type Session } from '../api';
import coverage from '../coverage.json';
import { Table } from './table';

const percent = (n: number, of: number) => `${of === 0 ? '0.0' : ((100 * n) / of).toFixed(1)}%`;

/** How much of the platform's catalogue this build answers, family by family (`npm run coverage` writes the data). */
function Coverage() {
  return (
    <section aria-labelledby="ops-coverage" class="coverage">
      <h2 id="ops-coverage">Coverage of the platform's API</h2>
      <p>
        {`${coverage.implemented} of ${coverage.total} catalogue operations (${percent(coverage.implemented, coverage.total)}), ${coverage.newer} of the platform's newer public spec, ${coverage.older} of its older API and ${coverage.own} of Gatehouse's own.`}
      </p>
      <Table
        id="coverage"
        caption="Families"
        rows={coverage.families}
        columns={[
          { label: 'Family', value: (f) => f.family },
          { label: 'Answered', value: (f) => `${f.implemented} of ${f.of}`, text: (f) => String(f.implemented) },
          {
            label: 'Share',
            value: (f) => (
              <span class="meter">
                <meter min={0} max={f.of} value={f.implemented} aria-label={`${f.family}: ${percent(f.implemented, f.of)}`} /> {percent(f.implemented, f.of)}
              </span>
            ),
            text: () => '',
          },
        ]}
      />
    </section>
  );
}

/** Operator actions on the whole server: reset, snapshot, restore, seed, organizations and keys. */
export function OperationsView({ session, onUseKey }: { session: Session; onUseKey: (s: Session) => void }) {
  const [output, setOutput] = useState('');
  const [error, setError] = useState('');
  const [snapshot, setSnapshot] = useState('console');
  const [orgName, setOrgName] = useState('');
  const [keyOrg, setKeyOrg] = useState(session.orgUuid ?? '');
  const [seedOrg, setSeedOrg] = useState(session.orgUuid ?? '');
  const [seed, setSeed] = useState('{\n  "locations": [{ "name": "Annex" }]\n}');
  const [confirmReset, setConfirmReset] = useState(false);
  const [created, setCreated] = useState<{ orgUuid: string; apiKey: string } | null>(null);

  const run = async (what: string, call: () => Promise<unknown>) => {
    setError('');
    setOutput('');
    try {
      const r = await call();
      setOutput(`${what}: ${JSON.stringify(r, null, 2)}`);
      return r;
    } catch (e) {
      setError(`${what} failed: ${errorText(e)}`);
      return null;
    }
  };

  const useKey = async (apiKey: string) => {
    const next: Session = { adminToken: session.adminToken, apiKey };
    const org = await api<{ orgUuid?: string; org?: { name?: string } }>(next, '/api/org/getOrgV2');
    next.orgUuid = org.orgUuid;
    next.orgName = org.org?.name;
    saveSession(next);
    onUseKey(next);
  };

  return (
    <div class="operations">
      <h1>Operations</h1>
      <section aria-labelledby="ops-state">
        <h2 id="ops-state">State</h2>
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run('Snapshot', () => control(session, 'POST', '/state/snapshot', { name: snapshot }));
          }}
        >
          <label>
            <span>Snapshot name</span>
            <input id="snapshot-name" value={snapshot} onInput={(e) => setSnapshot(e.currentTarget.value)} required />
          </label>
          <button type="submit">Save snapshot</button>
          <button type="button" onClick={() => void run('Restore', () => control(session, 'POST', '/state/restore', { name: snapshot }))}>
            Restore snapshot
          </button>
        </form>
        <div class="row">
          <label class="check">
            <input type="checkbox" checked={confirmReset} onChange={(e) => setConfirmReset(e.currentTarget.checked)} />
            <span>I mean to erase every organization</span>
          </label>
          <button type="button" class="danger" disabled={!confirmReset} onClick={() => void run('Reset', () => control(session, 'POST', '/state/reset'))}>
            Reset the store
          </button>
        </div>
      </section>
      <section aria-labelledby="ops-orgs">
        <h2 id="ops-orgs">Organizations and keys</h2>
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run('Create organization', () => control<{ orgUuid: string; apiKey: string }>(session, 'POST', '/orgs', { name: orgName })).then((r) =>
              setCreated(r as { orgUuid: string; apiKey: string } | null),
            );
          }}
        >
          <label>
            <span>New organization's name</span>
            <input id="org-name" value={orgName} onInput={(e) => setOrgName(e.currentTarget.value)} required />
          </label>
          <button type="submit">Create organization</button>
        </form>
        {created && (
          <p>
            Organization <code>{created.orgUuid}</code>; its key is shown once: <code>{created.apiKey}</code>{' '}
            <button type="button" onClick={() => void useKey(created.apiKey)}>
              Use this key
            </button>
          </p>
        )}
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run('Create key', () => control(session, 'POST', `/orgs/${keyOrg}/keys`, {}));
          }}
        >
          <label>
            <span>Organization of the new key</span>
            <input id="key-org" value={keyOrg} onInput={(e) => setKeyOrg(e.currentTarget.value)} required />
          </label>
          <button type="submit">Create API key</button>
        </form>
      </section>
      <section aria-labelledby="ops-seed">
        <h2 id="ops-seed">Seed a site</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            let body: unknown;
            try {
              body = JSON.parse(seed);
            } catch (err) {
              setError(`The site is not JSON: ${errorText(err)}`);
              return;
            }
            void run('Seed', () => control(session, 'POST', `/orgs/${seedOrg}/seed`, body));
          }}
        >
          <label class="field">
            <span>Organization</span>
            <input id="seed-org" value={seedOrg} onInput={(e) => setSeedOrg(e.currentTarget.value)} required />
          </label>
          <label class="field">
            <span>Site (JSON, the site file's shape)</span>
            <textarea id="seed-site" rows={6} value={seed} onInput={(e) => setSeed(e.currentTarget.value)} />
          </label>
          <button type="submit">Seed</button>
        </form>
      </section>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {output && <pre role="status">{output}</pre>}
      <Coverage />
    </div>
  );
}
