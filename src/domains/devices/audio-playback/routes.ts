import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as audio from './service.js';

const tags = ['Audio Playback'];

/** Audio clips made from text, and their playback on the audio gateways (issue 34). */
export function audioPlaybackRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/audioplayback/uploadAudioText',
      operationId: 'uploadAudioText',
      summary: 'Make an audio clip from text or SSML',
      description: 'Gatehouse has no voice: the clip is a tone per word, as long as the text takes to say. Kept on the media host (Ogg Opus).',
      tags,
      body: s.UploadAudioTextRequest,
      response: s.UploadAudioTextResponse,
    },
    (input, ctx) => audio.uploadAudioText(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/audioplayback/getAudioUploadMetadataForOrg',
      operationId: 'getAudioUploadMetadataForOrg',
      summary: "The organization's audio clips",
      tags,
      body: s.GetAudioUploadMetadataForOrgRequest,
      response: s.GetAudioUploadMetadataForOrgResponse,
    },
    async (_input, ctx) => ({ audioUploadMetadata: await audio.listAudioUploads(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/audioplayback/updateAudioUploadMetadata',
      operationId: 'updateAudioUploadMetadata',
      summary: 'Rename an audio clip or change its description',
      tags,
      body: s.UpdateAudioUploadMetadataRequest,
      response: s.AudioEnvelope,
    },
    async (input, ctx) => (await audio.updateAudioUpload(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/audioplayback/deleteAudioUploadMetadata',
      operationId: 'deleteAudioUploadMetadata',
      summary: 'Delete an audio clip',
      description: 'Its file goes with it; gateways playing it stop.',
      tags,
      body: s.DeleteAudioUploadMetadataRequest,
      response: s.AudioEnvelope,
    },
    async (input, ctx) => (await audio.deleteAudioUpload(deps, ctx, input.audioUploadUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/audioplayback/playAudioUpload',
      operationId: 'playAudioUpload',
      summary: 'Play an audio clip on audio gateways',
      description: 'playCount times (default once), or looped for loopDurationSec; the gateway plays it on its live audio meanwhile.',
      tags,
      body: s.PlayAudioUploadRequest,
      response: s.PlayAudioUploadResponse,
    },
    async (input, ctx) => ({ success: await audio.playAudioUpload(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/audioplayback/cancelLoopingAudioPlayback',
      operationId: 'cancelLoopingAudioPlayback',
      summary: 'Stop the clips audio gateways are looping',
      tags,
      body: s.CancelLoopingAudioPlaybackRequest,
      response: s.CancelLoopingAudioPlaybackResponse,
    },
    async (input, ctx) => ({ successMap: await audio.cancelLoopingPlayback(deps, ctx, input.audioDevices) }),
  );
}
