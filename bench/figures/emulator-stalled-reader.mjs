// docs/behaviour.md#performance, the emulator: a reader that never reads adds at most 32 MiB (measured by bench/emulator-fanout.mjs).
import { scriptFigure } from '../script-figure.mjs';

export const name = 'emulator: a stalled reader adds';
export const target = '≤ 32 MiB';
export const timeoutMs = 320_000;
export const measure = scriptFigure('emulator-fanout.mjs', 'a reader that never reads');
