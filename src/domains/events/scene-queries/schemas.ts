import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const PROMPT_TYPES = ['COUNT', 'PERCENT', 'BOOLEAN', 'TEXT'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
export const CHECK_OPERATORS = ['GT', 'LT', 'LTE', 'GTE', 'EQ', 'CONTAINS'] as const;
export const TRIGGER_ACTIVITIES = [
  'MOTION_HUMAN',
  'VISUAL_TAMPER',
  'MOTION',
  'FACE_ALERT',
  'POSE_ANOMALOUS',
  'MOTION_CAR',
  'LICENSEPLATE_ALERT',
  'HELMET_MISSING',
  'MASK_MISSING',
  'TAMPER',
  'PEOPLECOUNT_HIGH',
  'GUN_DETECT_EVENT',
  'HUMAN_ENTER',
  'HUMAN_EXIT',
  'CAR_ENTER',
  'CAR_EXIT',
  'RECURRING_INTERVAL',
] as const;

const PromptText = Type.String({ minLength: 1, maxLength: 2000 });
export const CheckCondition = Type.Object(
  { operator: StringEnum(CHECK_OPERATORS), value: Type.String({ maxLength: 200 }) },
  { description: 'what an answer is checked against: a met condition raises a CUSTOM_LLM_* policy alert' },
);
const Region = Type.Object({ coordinates: Opt(Type.Array(Type.Object({ x: Opt(Type.Number()), y: Opt(Type.Number()) }), { maxItems: 100 })) });
export const CameraConfiguration = Type.Object({
  cameraUuid: NotRef('handler', Type.Union([FacetId(), Ruuid()])),
  promptOverride: Opt(PromptText),
  promptExtension: Opt(Type.String({ maxLength: 2000 })),
  checkConditionOverride: Opt(CheckCondition),
  region: Opt(Region),
});

/** The fields of a prompt configuration a caller sets (create, update, selective update). */
const promptFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  shortName: Opt(Type.String({ maxLength: 50 })),
  prompt: PromptText,
  promptType: StringEnum(PROMPT_TYPES),
  checkCondition: Opt(CheckCondition),
  cameraConfigurations: Opt(Type.Array(CameraConfiguration, { maxItems: 500 })),
  active: Opt(Type.Boolean({ description: 'default true; an inactive prompt records answers but raises no alert' })),
  reportsEnabled: Opt(Type.Boolean()),
  scheduleUuid: Opt(RefUuid('schedule', { notFound: true })),
  trigger: Opt(Type.Object({ activity: StringEnum(TRIGGER_ACTIVITIES), value: Opt(Type.String({ maxLength: 200 })) })),
  multiImageTimeDeltasSeconds: Opt(Type.Array(Type.Integer({ minimum: -3600, maximum: 3600 }), { maxItems: 10 })),
  generateAlertForActionNewlyAddedCameras: Opt(Type.Boolean()),
};

export const PromptConfigurationInput = Type.Object({ ...promptFields, uuid: Opt(NotRef('subject', Ruuid())), orgUuid: Opt(NotRef('callerOrg', Ruuid())) });
export type PromptConfigurationInput = Static<typeof PromptConfigurationInput>;

export const PromptConfiguration = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  shortName: Field(Type.String()),
  prompt: Field(Type.String()),
  promptType: Field(StringEnum(PROMPT_TYPES)),
  checkCondition: Field(CheckCondition),
  cameraConfigurations: Field(
    Type.Array(
      Type.Object({
        cameraUuid: Field(FacetId()),
        promptOverride: Field(Type.String()),
        promptExtension: Field(Type.String()),
        checkConditionOverride: Field(CheckCondition),
        region: Field(Region),
      }),
    ),
  ),
  active: Field(Type.Boolean()),
  reportsEnabled: Field(Type.Boolean()),
  scheduleUuid: Field(Ruuid()),
  trigger: Field(Type.Object({ activity: Field(Type.String()), value: Field(Type.String()) })),
  multiImageTimeDeltasSeconds: Field(Type.Array(Type.Integer())),
  generateAlertForActionNewlyAddedCameras: Field(Type.Boolean()),
});
export type PromptConfigurationRecord = Static<typeof PromptConfiguration> & {
  uuid: string;
  orgUuid: string;
  name: string;
  prompt: string;
  promptType: PromptType;
};

export const PromptConfigurationRequest = Type.Object({ promptConfiguration: PromptConfigurationInput });
export const PromptConfigurationResponse = ResponseOf({ promptConfiguration: Field(PromptConfiguration) });
export const FindPromptConfigurationsResponse = ResponseOf({ promptConfigurations: Field(Type.Array(PromptConfiguration)) });
export const PromptUuidRequest = Type.Object({ promptUuid: RefUuid('prompt', { notFound: true }) });
export const SelectiveUpdatePromptConfigurationRequest = Type.Object({
  uuid: NotRef('subject', Ruuid()),
  ...Object.fromEntries(Object.entries(promptFields).map(([k, v]) => [k, Type.Optional(Nullable(v as TSchema))])),
  minuteTriggerRate: Opt(Type.Integer({ minimum: 0, description: 'accepted and ignored: Gatehouse runs prompts when asked or reported' })),
});
export type SelectiveUpdatePromptConfigurationRequest = Partial<PromptConfigurationInput> & { uuid: string };

/** A custom event as the reports and the ad-hoc operations answer it. */
export const SceneQueryReportEvent = Type.Object({
  timestampMs: Field(EpochMs()),
  value: Field(Type.String()),
  checkCondition: Field(Type.Boolean({ description: "whether the answer met the prompt's check condition; null without one" })),
  prompt: Field(Type.String()),
  image: Field(Type.String()),
  imageOffsets: Field(Type.Array(Type.Integer())),
  uuid: Field(
    Own(
      Ruuid({ description: 'the recorded custom event; null when nothing was recorded' }),
      'names the custom event the answer recorded (its CUSTOM_EVENT change, the reports)',
    ),
  ),
});
export type SceneQueryReportEventRecord = Static<typeof SceneQueryReportEvent>;

const DeviceRef = Type.Union([FacetId(), Ruuid()]);
export const AdHocPromptRequest = Type.Object({
  deviceFacetUuid: NotRef('handler', DeviceRef),
  promptUuid: RefUuid('prompt', { notFound: true }),
  timestampMs: Opt(Type.Integer({ minimum: 0 })),
});
export const TriggerPromptRequest = Type.Object({
  deviceFacetUuid: NotRef('handler', DeviceRef),
  prompt: PromptText,
  promptType: StringEnum(PROMPT_TYPES),
  region: Opt(Region),
  timestampMs: Opt(Type.Integer({ minimum: 0 })),
});
export const SceneQueryEventResponse = ResponseOf({ event: Field(SceneQueryReportEvent) });

/** A custom event: one answer of a prompt on a camera (the CUSTOM_EVENT change, the simulator's answer). */
export const CustomEvent = Type.Object({
  ...SceneQueryReportEvent.properties,
  orgUuid: Field(Ruuid()),
  promptUuid: Field(Ruuid()),
  promptType: Field(StringEnum(PROMPT_TYPES)),
  deviceFacetUuid: Field(FacetId()),
  locationUuid: Field(Ruuid()),
});
export type CustomEventRecord = Static<typeof CustomEvent> & {
  uuid: string;
  orgUuid: string;
  promptUuid: string;
  promptType: PromptType;
  deviceFacetUuid: string;
};

export const PromptOptimizationChatRequest = Type.Object({
  context: Field(
    Type.Object({
      deviceFacetUuid: NotRef('handler', Field(DeviceRef)),
      timestampMs: Field(Type.Integer({ minimum: 0 })),
      originalPrompt: Field(Type.String({ maxLength: 4000 })),
      originalAnswer: Field(Type.String({ maxLength: 4000 })),
      expectedAnswer: Field(Type.String({ maxLength: 4000 })),
      optionalContext: Field(Type.String({ maxLength: 4000 })),
      region: Field(Type.Object({ coordinates: Field(Type.Array(Type.Object({ x: Field(Type.Number()), y: Field(Type.Number()) }), { maxItems: 100 })) })),
    }),
  ),
  history: Field(Type.Array(Type.Object({ role: Type.String({ maxLength: 32 }), text: Type.String({ maxLength: 10_000 }) }), { maxItems: 100 })),
  currentMessage: Field(Type.String({ maxLength: 10_000 })),
});
export const PromptOptimizationChatResponse = ResponseOf({
  optimizedPrompt: Field(Type.String()),
  explanation: Field(Type.String()),
  questionForUser: Field(Type.String()),
});
