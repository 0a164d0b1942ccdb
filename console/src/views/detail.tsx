import type { ComponentChildren } from 'preact';

/** The console's address of a record's detail: `#/<view>/<kind>/<uuid>`. */
export const detailHref = (view: string, kind: string, uuid: string) => `#/${view}/${kind}/${encodeURIComponent(uuid)}`;

/** A list's name cell that opens the record's detail. */
export function DetailLink({ view, kind, uuid, children }: { view: string; kind: string; uuid: string; children: ComponentChildren }) {
  return <a href={detailHref(view, kind, uuid)}>{children}</a>;
}

const shown = (value: unknown): ComponentChildren =>
  value === null || value === undefined ? (
    <span class="muted">none</span>
  ) : typeof value === 'object' ? (
    <pre>{JSON.stringify(value, null, 2)}</pre>
  ) : (
    String(value)
  );

/** One record: its fields as the API answered them, with a way back to its list. */
export function RecordDetail({
  title,
  kind,
  record,
  back,
  children,
}: {
  title: string;
  kind: string;
  record: Record<string, unknown> | null;
  back: { href: string; label: string };
  children?: ComponentChildren;
}) {
  return (
    <article class="record" aria-labelledby="detail-heading">
      <p>
        <a href={back.href}>{`← ${back.label}`}</a>
      </p>
      <h1 id="detail-heading">
        {title} <span class="muted">({kind})</span>
      </h1>
      {children}
      {record === null ? (
        <p role="alert" class="error">
          {`No ${kind} with this id in the organization (it may have been deleted).`}
        </p>
      ) : (
        <section aria-labelledby="fields-heading">
          <h2 id="fields-heading">Fields</h2>
          <dl class="fields">
            {Object.entries(record).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{shown(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </article>
  );
}
