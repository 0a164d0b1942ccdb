import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Session } from '../api';
import { DetailLink, RecordDetail } from './detail';
import { Table } from './table';

type Raw = Record<string, unknown>;

/** A schedule, a rule or an integration: the fields the lists show, and the record as the API answered it. */
interface Item {
  kind: AutomationKind;
  uuid: string;
  name: string;
  type: string;
  summary: string;
  record: Raw;
}
export type AutomationKind = 'schedule' | 'rule' | 'integration';

const arr = (answer: Raw, field: string): Raw[] => (Array.isArray(answer[field]) ? (answer[field] as Raw[]) : []);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

const SCHEDULE_LISTS: [string, string][] = [
  ['weeklySchedules', 'weekly'],
  ['absoluteSchedules', 'absolute'],
  ['relativeSchedules', 'relative'],
  ['relativeDatetimeSchedules', 'relative date-time'],
];

function describeTriggers(rule: Raw): string {
  const triggers = Array.isArray(rule.triggers) ? (rule.triggers as Raw[]) : [];
  const action = (rule.action ?? {}) as Raw;
  const actions = Object.entries(action)
    .filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== false))
    .map(([k]) => k)
    .join(', ');
  const when = triggers.map((t) => str(t.triggerType ?? t.type ?? t.activity)).filter(Boolean);
  return [when.length ? `when ${when.join(` ${str(rule.conjunction || 'or').toLowerCase()} `)}` : '', actions ? `then ${actions}` : '']
    .filter(Boolean)
    .join(', ');
}

async function loadAutomation(session: Session): Promise<Item[]> {
  const [schedules, rules, buttonRules, integrations, webhooks] = await Promise.all([
    api(session, '/api/schedule/getSchedules'),
    api(session, '/api/rules/getRulesForOrg'),
    api(session, '/api/button/getButtonRulesForOrg'),
    api(session, '/api/integrations/org/getOrgIntegrations'),
    api(session, '/api/integrations/webhooks/getWebhookIntegrationV2'),
  ]);
  const items: Item[] = [];
  for (const [field, type] of SCHEDULE_LISTS) {
    for (const s of arr(schedules, field)) {
      const intervals = Array.isArray(s.intervalList) ? s.intervalList.length : null;
      items.push({
        kind: 'schedule',
        uuid: str(s.uuid),
        name: str(s.name),
        type,
        summary: intervals === null ? str(s.strategy) : `${intervals} interval${intervals === 1 ? '' : 's'} a week`,
        record: s,
      });
    }
  }
  for (const r of arr(rules, 'rules')) {
    items.push({ kind: 'rule', uuid: str(r.uuid), name: str(r.name), type: str(r.ruleType) || 'rule', summary: describeTriggers(r), record: r });
  }
  const byButton = (buttonRules.buttonUuidToRulesMap ?? {}) as Record<string, Raw[]>;
  for (const r of Object.values(byButton).flat()) {
    items.push({
      kind: 'rule',
      uuid: str(r.ruleUuid),
      name: str(r.ruleName),
      type: 'button',
      summary: `when the button is pressed ${str(r.triggerPress).toLowerCase()}`,
      record: r,
    });
  }
  // One integration per kind: its settings under the reference's name (secrets masked by the server).
  const settings = (integrations.orgIntegrations ?? {}) as Raw;
  for (const [name, value] of Object.entries(settings)) {
    if (!value || typeof value !== 'object') continue;
    const v = value as Raw;
    items.push({
      kind: 'integration',
      uuid: name,
      name: name.replace(/Settings$/, ''),
      type: v.enabled === false ? 'disabled' : 'enabled',
      summary: Object.keys(v).slice(0, 6).join(', '),
      record: v,
    });
  }
  // The organization's webhooks are listed apart from the other integrations.
  const hooks = (webhooks.orgIntegrationV2 ?? null) as Raw | null;
  const urls = hooks ? [...Object.keys((hooks.activityWebhooksV2 ?? {}) as Raw), ...Object.keys((hooks.diagnosticWebhooksV2 ?? {}) as Raw)] : [];
  if (hooks && urls.length > 0) {
    items.push({
      kind: 'integration',
      uuid: 'webhooks',
      name: 'webhooks',
      type: hooks.enabled === false ? 'disabled' : 'enabled',
      summary: urls.join(', '),
      record: hooks,
    });
  }
  return items;
}

const LISTS: { kind: AutomationKind; caption: string; empty: string }[] = [
  { kind: 'schedule', caption: 'Schedules', empty: 'No schedule.' },
  { kind: 'rule', caption: 'Rules', empty: 'No rule (general or button rule).' },
  { kind: 'integration', caption: 'Integrations', empty: 'No integration is set up.' },
];

/** The organization's schedules, rules (general and button) and integrations; each paged, searchable, with its detail. */
export function AutomationView({ session, detail }: { session: Session; detail: { kind: string; id: string } | null }) {
  const [items, setItems] = useState<Item[] | null>(null);
  const [error, setError] = useState('');
  const reload = () =>
    loadAutomation(session).then(
      (i) => {
        setItems(i);
        setError('');
      },
      (e: unknown) => setError(errorText(e)),
    );
  useEffect(() => {
    void reload();
  }, [session.apiKey]);

  if (error) return <p role="alert" class="error">{`Could not read the organization's automation: ${error}`}</p>;
  if (!items) return <p aria-live="polite">Loading schedules, rules and integrations…</p>;
  if (detail) {
    const item = items.find((i) => i.kind === detail.kind && i.uuid === detail.id);
    return (
      <RecordDetail title={item?.name ?? detail.id} kind={detail.kind} record={item?.record ?? null} back={{ href: '#/automation', label: 'Automation' }} />
    );
  }
  return (
    <div class="automation">
      <h1>Automation</h1>
      <p class="muted">
        Schedules, rules and integrations of the organization.{' '}
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </p>
      {LISTS.map(({ kind, caption, empty }) => (
        <Table
          key={kind}
          id={`${kind}s`}
          caption={caption}
          empty={empty}
          rows={items.filter((i) => i.kind === kind)}
          columns={[
            {
              label: 'Name',
              value: (i) => (
                <DetailLink view="automation" kind={i.kind} uuid={i.uuid}>
                  {i.name || i.uuid}
                </DetailLink>
              ),
              text: (i) => i.name,
            },
            { label: 'Type', value: (i) => i.type },
            { label: 'Summary', value: (i) => i.summary },
          ]}
        />
      ))}
    </div>
  );
}
