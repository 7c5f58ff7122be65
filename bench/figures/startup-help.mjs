// docs/behaviour.md#performance: `pushctl --help` starts within 1.4x of `node -e 0`.
import { startupFigure } from '../startup-ratio.mjs';

export const name = 'start-up: --help';
export const target = '≤ 1.4x node -e 0';
export const measure = startupFigure(() => ['--help'], 1.4);
