import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { DialectName } from './database.js';

/** An auto-incrementing integer primary key, spelled as each dialect wants it. */
export function withSerialId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName, name = 'id') {
  return dialect === 'sqlite'
    ? table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement())
    : table.addColumn(name, 'bigserial', (c: ColumnDefinitionBuilder) => c.primaryKey());
}

/** SQLite has no boolean type: booleans are stored as 0/1 in an integer column on both dialects. */
export const toDbBool = (v: boolean | null | undefined): number | null => (v == null ? null : v ? 1 : 0);
export const fromDbBool = (v: number | boolean | null | undefined): boolean | null => (v == null ? null : Boolean(v));

/** JSON documents are stored as text on both dialects. */
export const toJson = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
export function fromJson<T>(v: string | null | undefined): T | null {
  return v == null ? null : (JSON.parse(v) as T);
}
