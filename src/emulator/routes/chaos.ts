// `GET /v1/emulator/chaos` shows the chaos in force; `PUT` replaces it, with `{"spec": "503=5%", "seed"?: 7}`
// or the spec as plain text.
import { clip, httpError, ok, type EmulatorAnswer } from '../answers.js';
import { ChaosSpecError, parseChaosSpec } from '../chaos.js';
import type { RouteCall } from '../state.js';

export function showChaos({ state }: RouteCall): EmulatorAnswer {
  return ok(state.chaos.describe(), 'chaos');
}

export function setChaos({ request, state }: RouteCall): EmulatorAnswer {
  let spec = request.bodyText;
  let seed: number | undefined;
  if (spec.trim().startsWith('{')) {
    try {
      const json = JSON.parse(spec) as { spec?: unknown; seed?: unknown };
      if (typeof json.spec !== 'string') return httpError(400, 'send {"spec": "503=5%,latency=50-400ms", "seed": 7} or the spec as plain text');
      if (json.seed !== undefined && !(Number.isSafeInteger(json.seed) && (json.seed as number) >= 0)) return httpError(400, 'seed must be a whole number');
      spec = json.spec;
      seed = json.seed as number | undefined;
    } catch (error) {
      return httpError(400, `the body is not valid JSON (${(error as Error).message})`);
    }
  }
  try {
    state.chaos.set(parseChaosSpec(spec), seed);
  } catch (error) {
    if (error instanceof ChaosSpecError) return httpError(400, `chaos: ${error.message}`);
    throw error;
  }
  return ok(state.chaos.describe(), `chaos set to "${clip(state.chaos.describe().spec)}"`);
}
