import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { fail, isGatehouseError } from '../errors.js';
import type { ApiApp } from './operation.js';

/** A part of a multipart form as the services read it. */
export type FormPart =
  | { kind: 'field'; name: string; value: string }
  /** `read` answers the file's bytes, or null when it is larger than the form's file size limit (then never held whole). */
  | { kind: 'file'; fieldName: string; fileName: string; contentType: string; read(): Promise<Buffer | null> };

/** A form read whole: its fields, and its files with their bytes (null for one past the size limit). */
export interface ReadForm {
  fields: Map<string, string>;
  files: Array<{ fileName: string; bytes: Buffer | null }>;
}

/** Reads a form whole; a file's name keeps no path (a slash becomes `_`) and at most 255 characters. */
export async function readForm(parts: AsyncIterable<FormPart>): Promise<ReadForm> {
  const form: ReadForm = { fields: new Map(), files: [] };
  for await (const part of parts) {
    if (part.kind === 'field') form.fields.set(part.name, part.value);
    else form.files.push({ fileName: part.fileName.replace(/[\\/]/g, '_').slice(0, 255), bytes: await part.read() });
  }
  return form;
}

/**
 * Registers the multipart parser in an upload route's own scope (everywhere else the REST edge takes JSON
 * only), and refuses any other body there before validation. Files are streamed: busboy stops keeping a file's
 * bytes past `fileSize` and marks it truncated, so a larger file is refused without being held whole, and the
 * form goes on to the next part.
 */
export async function registerMultipartForm(scope: ApiApp, limits: { fileSize: number; files: number }): Promise<void> {
  scope.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) throw fail('INVALID_REQUEST', `Content-Type must be multipart/form-data, got "${request.headers['content-type'] ?? ''}"`);
  });
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: limits.fileSize, files: limits.files, fields: 10, fieldSize: 1024, parts: limits.files + 10, headerPairs: 100 },
  });
}

async function readLimited(stream: Readable & { truncated?: boolean }): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return stream.truncated ? null : Buffer.concat(chunks);
}

/**
 * A form the parser cannot read (no boundary, not multipart, a part cut short) is bad input, answered 400; a
 * form past the parser's limits (too many files or parts) keeps its 413.
 */
function malformed(e: unknown): unknown {
  if (isGatehouseError(e) || (e as { statusCode?: unknown } | null)?.statusCode === 413) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return fail('INVALID_REQUEST', `The body is not a valid multipart/form-data form: ${detail.slice(0, 200)}`);
}

/**
 * The request's form parts, in order. The parser's own failures (from reading the next part or a file's bytes)
 * become 400s; a service reads the whole form before it stores anything, so a form cut short changes nothing.
 */
export async function* formParts(request: FastifyRequest): AsyncIterable<FormPart> {
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (e) {
      throw malformed(e);
    }
    if (next.done) return;
    const part = next.value;
    if (part.type === 'field') yield { kind: 'field', name: part.fieldname, value: String(part.value) };
    else {
      const file = part.file;
      yield {
        kind: 'file',
        fieldName: part.fieldname,
        fileName: part.filename ?? '',
        contentType: part.mimetype ?? '',
        read: () => readLimited(file).catch((e) => Promise.reject(malformed(e))),
      };
    }
  }
}
