/// <reference lib="dom" />
// Whom the message being composed would reach among the simulated devices, asked of the emulator
// (GET /v1/emulator/audience) as the audience changes: the count a dry run would report, before sending.
import { $, num, plural } from './dom.js';

let asked = '';
let timer: ReturnType<typeof setTimeout> | undefined;

/** Shows the estimate for the message's condition; a pause in typing asks once, not on every key. */
export function estimateAudience(message: unknown): void {
  const condition = (message as { condition?: unknown } | undefined)?.condition;
  const shown = $('#compose-audience');
  if (typeof condition !== 'object' || condition === null) {
    asked = '';
    shown.textContent = '';
    return;
  }
  const query = JSON.stringify(condition);
  if (query === asked) return;
  asked = query;
  clearTimeout(timer);
  timer = setTimeout(() => void ask(query), 150);
}

async function ask(query: string): Promise<void> {
  const shown = $('#compose-audience');
  const answer = await fetch(`/v1/emulator/audience?${new URLSearchParams({ condition: query })}`).catch(() => undefined);
  if (query !== asked) return;
  if (!answer?.ok) {
    // No simulated devices (no --fleet or --devices): nothing to estimate against.
    shown.textContent = '';
    return;
  }
  const { reached, unknown_client_ids: unknown, fleet_size: size } = (await answer.json()) as { reached: number; unknown_client_ids: number; fleet_size: number };
  if (query !== asked) return;
  shown.textContent = `would reach ${num(reached)} of ${num(size)} simulated devices${unknown > 0 ? `; ${plural(unknown, 'client ID')} unknown to the fleet` : ''}`;
}
