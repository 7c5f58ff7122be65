// docs/behaviour.md#performance, the emulator: an --all push to a 1,000,000-device fleet answers within 50 ms (measured by bench/emulator-memory.mjs).
import { scriptFigure } from '../script-figure.mjs';

export const name = 'emulator: --all push to 1M devices';
export const target = '≤ 50 ms';
export const timeoutMs = 320_000;
export const measure = scriptFigure('emulator-memory.mjs', '--all push to 1,000,000 devices');
