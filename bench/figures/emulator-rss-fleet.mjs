// docs/behaviour.md#performance, the emulator: RSS within --keep-mb + 64 MiB with --fleet 1000000 (measured by bench/emulator-memory.mjs).
import { scriptFigure } from '../script-figure.mjs';

export const name = 'emulator RSS, --fleet 1000000, --keep-mb 96';
export const target = '≤ 160 MiB';
export const timeoutMs = 320_000;
export const measure = scriptFigure('emulator-memory.mjs', 'emulator peak RSS, --keep-mb 96 --fleet');
