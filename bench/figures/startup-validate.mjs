// docs/behaviour.md#performance: `pushctl validate -f small.json` starts within 1.4x of `node -e 0`.
import { smallMessage, startupFigure } from '../startup-ratio.mjs';

export const name = 'start-up: validate -f small.json';
export const target = '≤ 1.4x node -e 0';
export const measure = startupFigure((h) => ['validate', '-f', smallMessage(h)], 1.4);
