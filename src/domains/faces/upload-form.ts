import type { FastifyRequest } from 'fastify';
import type { ApiApp } from '../../edge/operation.js';
import { formParts, registerMultipartForm } from '../../edge/multipart-form.js';
import { MAX_FACE_IMAGE_BYTES, type UploadPart } from './matchmakers.service.js';

const MAX_FILES = 20;

/** The face uploads' form (src/edge/multipart-form.ts): up to 20 images of up to 5 MB each. */
export const registerUploadForm = (scope: ApiApp): Promise<void> => registerMultipartForm(scope, { fileSize: MAX_FACE_IMAGE_BYTES, files: MAX_FILES });

/** The form's parts as the faces service reads them. */
export async function* uploadParts(request: FastifyRequest): AsyncIterable<UploadPart> {
  for await (const part of formParts(request)) yield part.kind === 'field' ? part : { kind: 'file', fileName: part.fileName, read: part.read };
}
