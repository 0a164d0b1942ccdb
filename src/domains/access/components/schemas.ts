import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { EpochMs, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Hardware components (issue 34): shapes from the reference catalogue, one descriptor per component type. */

const PortNumber = Type.Integer({ minimum: 0, maximum: 255 });
const SupervisionMode = StringEnum(['CUT_DETECT', 'SHORT_DETECT', 'CUT_AND_SHORT_DETECT'] as const);

/** A physical port on a board of the owner device, of one of `portTypes`. */
const Port = <T extends string>(portTypes: readonly T[], supervised = false) =>
  Type.Object({
    boardNum: Field(PortNumber),
    portNum: Field(PortNumber),
    portType: Field(StringEnum(portTypes)),
    ...(supervised ? { supervisionConfiguration: Field(Type.Object({ mode: Field(SupervisionMode) })) } : {}),
  });

const SupervisedInputPort = Port(['GPIO_INPUT', 'GPIO_INPUT_SUPERVISED'] as const, true);
const OutputPort = Port(['GPIO_OUTPUT'] as const);
const OsdpPort = Port(['RS485'] as const);
const WiegandOutputPort = Port(['WIEGAND_OUTPUT'] as const);
const WiegandDataPort = Port(['WIEGAND_INPUT'] as const);
const NormalState = StringEnum(['NO', 'NC'] as const);
export const GenericRelayState = StringEnum(['ACTIVE', 'INACTIVE', 'UNKNOWN'] as const);
const Name = Type.String({ minLength: 1, maxLength: 200 });

const readerFeedback = {
  otherReaderUnlockAudioFeedbackEnabled: Field(Type.Boolean()),
  remoteUnlockAudioFeedbackEnabled: Field(Type.Boolean()),
};

/** The fields each type's create and update operations take (beyond the owner device / component uuid). */
export const COMPONENT_FIELDS = {
  IntegratedDoorPositionIndicator: { name: Name, normalState: NormalState, port: SupervisedInputPort },
  IntegratedDoorRelay: { name: Name, port: OutputPort },
  IntegratedGenericButton: {
    name: Name,
    mode: StringEnum(['PANIC', 'PROGRAMMABLE', 'DOORBELL', 'NONE'] as const),
    port: Port(['GPIO_INPUT', 'BUTTON_INPUT'] as const),
  },
  IntegratedGenericInput: { name: Name, normalState: NormalState, port: SupervisedInputPort },
  IntegratedGenericRelay: { name: Name, port: OutputPort, steadyState: GenericRelayState },
  IntegratedRequestToExit: { name: Name, normalState: NormalState, port: SupervisedInputPort, intentOnly: Type.Boolean(), intentOnlyEvents: Type.Boolean() },
  OsdpDoorReader: {
    name: Name,
    port: OsdpPort,
    allowUnencrypted: Type.Boolean(),
    disableCardReader: Type.Boolean(),
    disableKeypad: Type.Boolean(),
    ...readerFeedback,
  },
  RhombusOsdpDoorReader: {
    name: Name,
    port: OsdpPort,
    deviceUuid: NotRef('handler', Ruuid({ description: 'The reader device wired to the port' })),
    disableCardReader: Type.Boolean(),
    disableWaveToUnlock: Type.Boolean(),
    ...readerFeedback,
  },
  WiegandDoorReader: {
    name: Name,
    d0Port: WiegandDataPort,
    d1Port: WiegandDataPort,
    buzzerPort: WiegandOutputPort,
    gledPort: WiegandOutputPort,
    rledPort: WiegandOutputPort,
    tamperPort: Port(['WIEGAND_INPUT', 'GPIO_INPUT'] as const),
    csnEndian: StringEnum(['MSB', 'LSB'] as const),
    disableCardReader: Type.Boolean(),
    disableKeypad: Type.Boolean(),
    ...readerFeedback,
  },
} satisfies Record<string, TProperties>;
export type ComponentType = keyof typeof COMPONENT_FIELDS;

/** The fields an update may change, where the catalogue's update takes fewer than its create. */
export const UPDATE_OMITS: Partial<Record<ComponentType, readonly string[]>> = {
  IntegratedGenericRelay: ['steadyState'],
  OsdpDoorReader: ['allowUnencrypted'],
  RhombusOsdpDoorReader: ['deviceUuid'],
};

/** Every field optional and nullable (a create's defaults fill the gaps; an update changes only what is given). */
const optional = (fields: TProperties): TProperties =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === 'deviceUuid' ? Type.Optional(v) : Field(v)]));

export const createRequest = (type: ComponentType): TObject =>
  Type.Object({ ownerDeviceUuid: NotRef('handler', Ruuid({ description: 'The device the component is wired to' })), ...optional(COMPONENT_FIELDS[type]) });

export const updateRequest = (type: ComponentType): TObject => {
  const omit = new Set(UPDATE_OMITS[type] ?? []);
  const fields = Object.fromEntries(Object.entries(COMPONENT_FIELDS[type]).filter(([k]) => !omit.has(k)));
  return Type.Object({ componentUuid: NotRef('subject', Ruuid({ description: 'The component' })), ...optional(fields) });
};

const HardwareType = Type.String({ description: 'The owner device’s hardware variation (HardwareVariationEnum)' });

/** What every component says, whatever its type (the catalogue's BaseComponentType). */
const baseComponentFields = {
  uuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  ownerDeviceUuid: Field(Type.String()),
  ownerHardwareType: Field(HardwareType),
  type: Field(Type.String()),
  baseType: Field(StringEnum(['reader', 'dpi', 'relay', 'rex', 'aux', 'aperio', 'button'] as const)),
  name: Field(Type.String()),
  portImmutable: Field(Type.Boolean()),
  createdAtMillis: Field(EpochMs()),
  updatedAtMillis: Field(EpochMs()),
};
export const BaseComponent = Type.Object(baseComponentFields);

/** One type's component as the API returns it: the base fields, its own fields, and what the server derives. */
export const componentSchema = (type: ComponentType): typeof BaseComponent =>
  Type.Object({
    ...baseComponentFields,
    ...optional(COMPONENT_FIELDS[type]),
    dpiType: Field(Type.String()),
    relayType: Field(Type.String()),
    rateLimitingEnabled: Field(Type.Boolean()),
    buttonType: Field(Type.String()),
    auxType: Field(Type.String()),
    rexType: Field(Type.String()),
    readerType: Field(Type.String()),
    osdpAddress: Field(Type.Integer()),
    disableWaveToUnlock: Field(Type.Boolean()),
    disableKeypad: Field(Type.Boolean()),
    allowCredsDuringUnlock: Field(Type.Boolean()),
    serialNumber: Field(Type.String()),
    hardwareUuid: Field(Type.String()),
    relayDurationSec: Field(Type.Integer()),
    stateChangedAtMillis: Field(EpochMs()),
    originator: Field(Type.Object({ type: Field(Type.String()) })),
  }) as unknown as typeof BaseComponent; // typed by the base fields: the rest varies by type

export const componentResponse = (type: ComponentType) => ResponseOf({ component: Field(componentSchema(type)) });

export const ComponentUuidRequest = Type.Object({ componentUuid: NotRef('subject', Ruuid({ description: 'The component' })) });
export const OwnerDeviceRequest = Type.Object({ ownerDeviceUuid: NotRef('subject', Ruuid({ description: 'The device the components are wired to' })) });
export const FindComponentsResponse = ResponseOf({ components: Field(Type.Array(BaseComponent)) });

export const ComponentShadow = Type.Object({
  componentUuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  ownerDeviceUuid: Field(Type.String()),
  type: Field(Type.String({ description: 'ComponentShadowEnumType' })),
  state: Field(Type.String()),
  stateUpdateEventTimestampMs: Field(EpochMs()),
  supervisionState: Field(Type.String()),
  originator: Field(Type.Object({ type: Field(Type.String()) })),
  createdAtMillis: Field(EpochMs()),
  updatedAtMillis: Field(EpochMs()),
});
export type ComponentShadowRecord = Static<typeof ComponentShadow>;

export const FindAllComponentShadowsRequest = Type.Object({
  componentUuids: NotRef('filter', Field(Type.Array(Ruuid(), { maxItems: 1000, description: 'The components; all of the organization’s when absent' }))),
});
export const FindAllComponentShadowsResponse = ResponseOf({ acuComponentShadowMap: Field(Type.Record(Type.String(), ComponentShadow)) });
export const FindComponentShadowsResponse = ResponseOf({ componentShadows: Field(Type.Array(ComponentShadow)) });

export const SteadyStateRequest = Type.Object({
  componentUuid: NotRef('subject', Ruuid({ description: 'The generic relay' })),
  steadyState: GenericRelayState,
});
export const TransientStateRequest = Type.Object({
  componentUuid: NotRef('subject', Ruuid({ description: 'The generic relay' })),
  activate: Field(Type.Boolean()),
  durationMs: Field(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
  correlationUuid: NotRef('ignored', Field(Type.String({ maxLength: 100 }))),
  deviceUuid: NotRef('ignored', Field(Ruuid())),
});
export const TransientStateResponse = ResponseOf({ success: Field(Type.Boolean()) });

const PhysicalPort = Type.Object({
  boardNum: Field(Type.Integer()),
  portNum: Field(Type.Integer()),
  label: Field(Type.String()),
  supportedPortTypes: Field(Type.Array(Type.String())),
  componentPortTypeUsageMap: Field(Type.Record(Type.String(), Type.Array(Type.String()))),
});
export const PortConfigResponse = ResponseOf({
  devicePhysicalPortConfig: Field(
    Type.Object({
      ownerDeviceUuid: Field(Type.String()),
      orgUuid: Field(Type.String()),
      boardMap: Field(
        Type.Record(
          Type.String(),
          Type.Object({ boardNum: Field(Type.Integer()), ownerHardwareType: Field(HardwareType), portMap: Field(Type.Record(Type.String(), PhysicalPort)) }),
        ),
      ),
      createdAtMillis: Field(EpochMs()),
      updatedAtMillis: Field(EpochMs()),
    }),
  ),
  deviceComponents: Field(Type.Array(BaseComponent)),
  detectedInvalidPortConfigs: Field(
    Type.Array(
      Type.Object({
        boardNum: Field(Type.Integer()),
        portNum: Field(Type.Integer()),
        componentUuids: Field(Type.Array(Type.String())),
        reason: Field(Type.String()),
      }),
    ),
  ),
});

/** `gatehouse simulate component`: what a component reports (an input's state, a REX pressed, a card read). */
export const SimulateComponentBody = Type.Object(
  {
    component: Ruuid({ description: 'the component that reports' }),
    state: Type.Optional(Type.String({ description: 'its new state (ACTIVE, INACTIVE, OPEN, CLOSED, BUTTON_DOWN, ...)', maxLength: 40 })),
    hex: Type.Optional(Type.String({ description: 'for a reader: the credential read, in hex', maxLength: 200 })),
    at: Type.Optional(Type.Integer({ description: 'when it happened, epoch milliseconds (default now)' })),
  },
  { additionalProperties: false },
);
export const SimulateComponentResponse = ResponseOf({ shadow: Field(ComponentShadow), doorUuid: Field(Type.String()) });
