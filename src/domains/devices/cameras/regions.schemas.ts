import { Type, type Static } from 'typebox';
import { ActivityEnum } from '../../../schemas/activities.js';
import { Field, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/**
 * A camera's regions of interest, kept in its settings as `region_of_interest_groups` (camera/getConfig and
 * updateConfig, the faceted video settings): groups of named polygons over the image. Shapes from the
 * catalogue's RegionOfInterestGroup; corners are shares of the image (0..1, x from the left, y from the top).
 */
export const REGION_GROUP_TYPES = ['ACTIVITY', 'REPORTING', 'CROSSING'] as const;
/** The most corners a region, regions a group and groups a camera may have. */
export const REGION_LIMITS = { corners: 64, regions: 32, groups: 16 } as const;

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
export const RegionCoordinate = Type.Object({
  x: Share('share of the image width, from the left edge'),
  y: Share('share of the image height, from the top edge'),
});
export const RegionPolygon = Type.Object({
  coordinates: Type.Array(RegionCoordinate, {
    minItems: 3,
    maxItems: REGION_LIMITS.corners,
    description: 'the corners in order; a simple polygon (no two edges cross) with some area',
  }),
});
export const RegionOfInterest = Type.Object({
  uuid: Field(NotRef('created', Ruuid({ description: "the region's id; absent: one is given. Unique in the organization" }))),
  name: Field(Type.String({ maxLength: 200 })),
  activities: Field(Type.Array(ActivityEnum, { uniqueItems: true, maxItems: 100 })),
  polygon: RegionPolygon,
});
export const RegionOfInterestGroup = Type.Object({
  inclusive: Field(Type.Boolean({ description: 'default true' })),
  regionsOfInterest: Type.Array(RegionOfInterest, { minItems: 1, maxItems: REGION_LIMITS.regions }),
  type: Field(StringEnum(REGION_GROUP_TYPES, 'default ACTIVITY')),
});
export const RegionOfInterestGroups = Type.Array(RegionOfInterestGroup, {
  maxItems: REGION_LIMITS.groups,
  description: 'the whole list of groups: it replaces the one kept ([] removes every region)',
});
export type RegionOfInterestGroups = Static<typeof RegionOfInterestGroups>;
