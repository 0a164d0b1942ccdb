import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './raw-http-streams.schemas.js';
import * as streams from './raw-http-streams.service.js';

const tags = ['Camera'];

/** Raw HTTP streams of cameras (issue 19). */
export function rawHttpStreamRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/createRawHttpStream',
      operationId: 'createCameraRawHttpStream',
      summary: "A raw HTTP stream of a camera's live video",
      description:
        'The URLs are paths on the media host that serve the live video as one continuous MPEG-TS (H.264) to a request with the secret (the secret query parameter, or the password of HTTP Basic authentication), until the stream is deleted. This answer is the only one that shows the secret; lists mask it.',
      tags,
      body: s.CreateRawHttpStreamRequest,
      response: s.CreateRawHttpStreamResponse,
    },
    async (input, ctx) => streams.createRawHttpStream(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/camera/findAllRawHttpStreams',
      operationId: 'findAllCameraRawHttpStreams',
      summary: "Every raw HTTP stream of the organization's cameras (secrets masked)",
      tags,
      body: s.FindAllRawHttpStreamsRequest,
      response: s.RawHttpStreamsResponse,
    },
    async (_input, ctx) => ({ rawHttpStreams: await streams.findAllRawHttpStreams(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getRawHttpStreams',
      operationId: 'getCameraRawHttpStreams',
      summary: "A camera's raw HTTP streams (secrets masked)",
      tags,
      body: s.GetRawHttpStreamsRequest,
      response: s.RawHttpStreamsResponse,
    },
    async (input, ctx) => ({ rawHttpStreams: await streams.getRawHttpStreams(deps, ctx, input.deviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/camera/deleteRawHttpStream',
      operationId: 'deleteCameraRawHttpStream',
      summary: 'Delete a raw HTTP stream: its path answers 404',
      tags,
      body: s.DeleteRawHttpStreamRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      await streams.deleteRawHttpStream(deps, ctx, input);
      return {};
    },
  );
}
