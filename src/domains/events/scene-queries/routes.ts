import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../../schemas/common.js';
import {
  GetCustomEventsBinaryCountsResponse,
  GetCustomEventsCountsRequest,
  GetCustomEventsNumericCountsResponse,
  GetCustomEventsReportRequest,
  GetCustomEventsReportResponse,
} from '../custom-events/custom-event-reports.schemas.js';
import * as reports from '../custom-events/custom-event-reports.service.js';
import * as customEvents from '../custom-events/service.js';
import {
  AdHocPromptRequest,
  FindPromptConfigurationsResponse,
  PromptConfigurationRequest,
  PromptConfigurationResponse,
  PromptUuidRequest,
  SceneQueryEventResponse,
  SelectiveUpdatePromptConfigurationRequest,
  TriggerPromptRequest,
  type SelectiveUpdatePromptConfigurationRequest as SelectiveUpdate,
} from './schemas.js';
import * as prompts from './service.js';
import { optimizePromptChat } from './prompt-optimizer.service.js';
import { PromptOptimizationChatRequest, PromptOptimizationChatResponse } from './schemas.js';

const SCENE = '/api/scenequery';
const tags = ['SceneQuery'];
const analyzer = 'The scene analyzer is the video-analytics system at GATEHOUSE_ANALYTICS_API_URL (docs/events.md); without it the prompt cannot run.';

/** Scene-query prompts, running them on a camera, and the reports of their answers (custom events). */
export function sceneQueryRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${SCENE}/createPromptConfiguration`,
      operationId: 'createPromptConfiguration',
      summary: 'Create a scene-query prompt',
      description: "Its cameras and schedule must be the organization's; its check condition must suit its prompt type.",
      tags,
      body: PromptConfigurationRequest,
      response: PromptConfigurationResponse,
    },
    async (input, ctx) => ({ promptConfiguration: await prompts.createPrompt(deps, ctx, input.promptConfiguration) }),
  );
  operation(
    app,
    {
      path: `${SCENE}/getPromptConfiguration`,
      operationId: 'getPromptConfiguration',
      summary: 'Get a scene-query prompt',
      tags,
      body: PromptUuidRequest,
      response: PromptConfigurationResponse,
    },
    async (input, ctx) => ({ promptConfiguration: await prompts.getPrompt(deps, ctx, input.promptUuid) }),
  );
  operation(
    app,
    {
      path: `${SCENE}/findPromptConfigurations`,
      operationId: 'findAllPromptConfigurations',
      summary: "Find the organization's scene-query prompts",
      description: 'By name.',
      tags,
      body: EmptyRequest,
      response: FindPromptConfigurationsResponse,
    },
    async (_input, ctx) => ({ promptConfigurations: await prompts.listPrompts(deps, ctx) }),
  );
  operation(
    app,
    {
      path: `${SCENE}/updatePromptConfiguration`,
      operationId: 'updatePromptConfiguration',
      summary: 'Replace a scene-query prompt',
      description: 'The whole configuration, named by its uuid; answers already recorded stay.',
      tags,
      body: PromptConfigurationRequest,
      response: PromptConfigurationResponse,
    },
    async (input, ctx) => ({
      promptConfiguration: await prompts.updatePrompt(deps, ctx, input.promptConfiguration.uuid, input.promptConfiguration, true),
    }),
  );
  operation(
    app,
    {
      path: `${SCENE}/selectiveUpdatePromptConfiguration`,
      operationId: 'selectiveUpdatePromptConfiguration',
      summary: 'Update fields of a scene-query prompt',
      description: 'The fields given; the others stay.',
      tags,
      body: SelectiveUpdatePromptConfigurationRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      const { uuid, ...patch } = input as unknown as SelectiveUpdate;
      await prompts.updatePrompt(deps, ctx, uuid, patch, false);
      return {};
    },
  );
  operation(
    app,
    {
      path: `${SCENE}/deletePromptConfiguration`,
      operationId: 'deletePromptConfiguration',
      summary: 'Delete a scene-query prompt',
      description: 'With every answer recorded of it.',
      tags,
      body: PromptUuidRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await prompts.deletePrompt(deps, ctx, input.promptUuid), {}),
  );
  operation(
    app,
    {
      path: `${SCENE}/adHocPrompt`,
      operationId: 'adHocPrompt',
      summary: 'Run a scene-query prompt on a camera now',
      description: `The answer is recorded as a custom event (and raises a CUSTOM_LLM_* alert when it meets the check condition of an active prompt). ${analyzer}`,
      tags,
      body: AdHocPromptRequest,
      response: SceneQueryEventResponse,
    },
    async (input, ctx) => ({ event: await customEvents.adHocPrompt(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${SCENE}/triggerPrompt`,
      operationId: 'triggerPrompt',
      summary: 'Ask a camera a prompt that is not saved',
      description: `The answer is returned, not recorded. ${analyzer}`,
      tags,
      body: TriggerPromptRequest,
      response: SceneQueryEventResponse,
    },
    async (input, ctx) => ({ event: await customEvents.triggerPrompt(deps, ctx, input) }),
  );

  const reportTags = ['Report'];
  operation(
    app,
    {
      path: '/api/report/getCustomEventsReport',
      operationId: 'getCustomEventsReport',
      summary: 'Get the answers of scene-query prompts',
      description: `Oldest first, one series per camera and prompt, at most ${reports.CUSTOM_REPORT_MAX.events} answers (narrow the range beyond).`,
      tags: reportTags,
      body: GetCustomEventsReportRequest,
      response: GetCustomEventsReportResponse,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await reports.getCustomEventsReport(deps, ctx, input) }),
  );
  const counts = 'Per camera (by facet id) and bucket, cut on the wall clock of timeZone, else of the camera’s location, else UTC.';
  operation(
    app,
    {
      path: '/api/report/getCustomEventsBinaryCounts',
      operationId: 'getCustomEventsBinaryCounts',
      summary: 'Count the true and false answers of a BOOLEAN prompt',
      description: counts,
      tags: reportTags,
      body: GetCustomEventsCountsRequest,
      response: GetCustomEventsBinaryCountsResponse,
    },
    async (input, ctx) => ({ reports: await reports.getCustomEventsBinaryCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getCustomEventsNumericCounts',
      operationId: 'getCustomEventsNumericCounts',
      summary: 'Add up the answers of a COUNT or PERCENT prompt',
      description: `${counts} Each bucket has the count, sum, lowest, highest and mean answer.`,
      tags: reportTags,
      body: GetCustomEventsCountsRequest,
      response: GetCustomEventsNumericCountsResponse,
    },
    async (input, ctx) => ({ reports: await reports.getCustomEventsNumericCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${SCENE}/optimizePromptChat`,
      operationId: 'optimizePromptChat',
      summary: 'One turn of a chat that improves a scene-query prompt',
      description: "Answered by the video-analytics system that runs prompts (GATEHOUSE_ANALYTICS_API_URL); the camera named must be the organization's.",
      tags,
      permission: { kind: 'read' },
      body: PromptOptimizationChatRequest,
      response: PromptOptimizationChatResponse,
    },
    (input, ctx) => optimizePromptChat(deps, ctx, input),
  );
}
