// docs/behaviour.md#performance, the emulator: 1,000 open event-stream readers slow pushes by at most 2x (measured by bench/emulator-fanout.mjs).
import { scriptFigure } from '../script-figure.mjs';

export const name = 'emulator: 1,000 event-stream readers';
export const target = '≤ 2x push time';
export const timeoutMs = 320_000;
export const measure = scriptFigure('emulator-fanout.mjs', '1,000 event-stream readers');
