import { Type, type Static, type TSchema } from 'typebox';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import { toCsv } from './csv.js';

/**
 * The CSV exports (/api/export/*) share this: an export names its columns (header and how a record gives
 * the cell) and reads its records, page by page through its domain's service, oldest or newest first as
 * that service answers them; the answer is one RFC 4180 document, a header row then one row per record.
 */

/** The most rows one export answers; a larger one is refused (narrow the range). */
export const EXPORT_MAX_ROWS = 100_000;
/** Records read per page while draining a paged read. */
export const EXPORT_PAGE = 1000;

export type Cell = string | number | boolean | null | undefined;
export interface CsvColumn<R> {
  header: string;
  value: (record: R) => Cell;
}

/** Column shorthand: a record's own field, as is. */
export const fieldColumn = <R>(header: keyof R & string): CsvColumn<R> => ({ header, value: (r) => r[header] as Cell });

/**
 * The platform's date and time cells, which its example scripts parse (client-calls.md, section 3), in UTC:
 * `Date` is `YYYY-MM-DD`; `Time` is `HH:MM:SS`, or `HH:MM:SS+00:00` with `offset` (the diagnostic export's form).
 * Without the offset a script that keeps the part of Time before a `-` and parses the rest still reads it.
 */
export const utcDate = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString().slice(0, 10));
export const utcTime = (ms: number | null | undefined, offset = false) =>
  ms == null ? null : `${new Date(ms).toISOString().slice(11, 19)}${offset ? '+00:00' : ''}`;
/** `YYYY-MM-DDTHH:MM:SS UTC`: the count report export's Date. */
export const utcDateTimeZone = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)} UTC`;

export function csvOf<R>(columns: ReadonlyArray<CsvColumn<R>>, records: readonly R[]): string {
  const cell = (v: Cell) => (v === undefined || v === null ? null : typeof v === 'boolean' ? String(v) : v);
  return toCsv(
    columns.map((c) => c.header),
    records.map((r) => columns.map((c) => cell(c.value(r)))),
  );
}

/** Refuses a range whose start is after its end (either bound may be absent). */
export function checkExportRange(startMs: number | null | undefined, endMs: number | null | undefined): void {
  if (startMs != null && endMs != null && startMs > endMs) throw fail('INVALID_VALUE', 'the start of the range must not be after its end');
}

/**
 * Every record of a paged read: `readPage(cursor)` answers a page and the cursor of the next (null on the
 * last). Bounded: at most EXPORT_MAX_ROWS records, and so at most that many pages.
 */
export async function drain<R, C>(readPage: (cursor: C | null) => Promise<{ records: R[]; next: C | null }>): Promise<R[]> {
  const all: R[] = [];
  let cursor: C | null = null;
  for (let pages = 0; pages <= EXPORT_MAX_ROWS; pages++) {
    const { records, next }: { records: R[]; next: C | null } = await readPage(cursor);
    all.push(...records);
    if (all.length > EXPORT_MAX_ROWS) throw fail('INVALID_VALUE', `the export holds more than ${EXPORT_MAX_ROWS} rows: narrow the range`);
    if (next === null || records.length === 0) return all;
    cursor = next;
  }
  return all;
}

export interface ExportSpec<B extends TSchema, R> {
  path: string;
  operationId: string;
  summary: string;
  body: B;
  columns: ReadonlyArray<CsvColumn<R>>;
  read: (deps: Deps, ctx: CallerContext, input: Static<B>) => Promise<R[]>;
}

/** Registers one CSV export: text/csv on success, the JSON envelope on failure. */
export function exportOperation<B extends TSchema, R>(app: ApiApp, deps: Deps, spec: ExportSpec<B, R>): void {
  operation(
    app,
    {
      path: spec.path,
      operationId: spec.operationId,
      summary: spec.summary,
      description: `text/csv: ${spec.columns.map((c) => c.header).join(',')}; one row per record. Failures answer the JSON envelope.`,
      tags: ['Export'],
      envelope: false,
      body: spec.body,
      response: Type.Union([Type.String({ description: 'the CSV document' }), EnvelopeResponse]),
    },
    async (input, ctx, _request, reply) => {
      const csv = csvOf(spec.columns, await spec.read(deps, ctx, input));
      reply.type('text/csv; charset=utf-8');
      return csv;
    },
  );
}
