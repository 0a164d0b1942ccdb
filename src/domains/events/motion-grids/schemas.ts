import { Type } from 'typebox';
import { Field, ResponseOf } from '../../../schemas/common.js';
import { ActivityEnum } from '../../../schemas/activities.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Motion grids and heat maps (event/getMotionGrid, searchMotionGrid, getMotionHeatMap, searchMotionGridWithActivities). */

/** The grid a camera's picture is cut into: GRID.cols across, GRID.rows down (16:9, as the simulated frame). */
export const GRID = { cols: 16, rows: 9 } as const;
/** The longest window one read covers. */
export const MAX_WINDOW_SECS = 7 * 86_400;

const Cell = Type.Object({
  row: Type.Integer({ minimum: 0, maximum: GRID.rows - 1 }),
  col: Type.Integer({ minimum: 0, maximum: GRID.cols - 1 }),
});
const AnswerCell = Type.Object({ row: Field(Type.Integer()), col: Field(Type.Integer()) });

const Window = {
  deviceUuid: NotRef('handler', Type.String({ maxLength: 64, description: 'the camera: its uuid or facet id' })),
  startTimeUtcSecs: Type.Integer({ minimum: 0, description: 'start of the window (inclusive), epoch seconds' }),
  endTimeUtcSecs: Type.Integer({ minimum: 0, description: `end of the window (exclusive), epoch seconds; at most ${MAX_WINDOW_SECS} s after the start` }),
};
export const MotionGridRequest = Type.Object(Window);
export const SearchMotionGridRequest = Type.Object({
  ...Window,
  searchCells: Type.Array(Cell, { minItems: 1, maxItems: GRID.rows * GRID.cols, description: `cells of the ${GRID.cols}x${GRID.rows} grid` }),
});

export const GetMotionGridResponse = ResponseOf({
  motionCells: Field(
    Type.Record(Type.String(), Type.Array(AnswerCell), {
      description: 'by second with motion (epoch seconds), the cells it covered, each once, in grid order',
    }),
  ),
});
export const GetMotionHeatMapResponse = ResponseOf({
  countGrid: Field(Type.Array(Type.Array(Type.Integer()), { description: `${GRID.rows} rows of ${GRID.cols} counts: detections covering each cell` })),
});
export const SearchMotionGridResponse = ResponseOf({ timeUtcSecsList: Field(Type.Array(Type.Integer())) });
export const SearchMotionGridWithActivitiesResponse = ResponseOf({
  timeUtcSecsToActivityMap: Field(
    Type.Record(
      Type.String(),
      Type.Object({ activities: Field(Type.Array(ActivityEnum)), bestTimestampMs: Field(Type.Integer({ description: 'the first detection of that second' })) }),
    ),
  ),
});
