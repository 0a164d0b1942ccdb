import { readResult, type CallResult, type TestServer } from '../../helpers/server.js';

export const UPLOAD = '/api/faceRecognition/matchmaker/uploadFaceMatchmakers';

export interface UploadFile {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** Posts a multipart form as the platform's clients do: files (part name `file`), then any fields, with the query string (to the face upload, or `path`). */
export async function upload(
  server: TestServer,
  key: string,
  files: UploadFile[],
  options: { query?: Record<string, string>; fields?: Record<string, string>; fieldsFirst?: boolean; path?: string } = {},
): Promise<CallResult> {
  const form = new FormData();
  const addFields = () => Object.entries(options.fields ?? {}).forEach(([k, v]) => form.append(k, v));
  if (options.fieldsFirst) addFields();
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  if (!options.fieldsFirst) addFields();
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const headers: Record<string, string> = key ? { 'x-auth-apikey': key } : {};
  return readResult(await fetch(`${server.rest}${options.path ?? UPLOAD}${query}`, { method: 'POST', headers, body: form }));
}
