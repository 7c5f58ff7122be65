/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// A data message's key/value pairs as rows of two inputs, as a person thinks of them (a Firebase-console
// habit), read back as the `key=value` lines the CLI's --data flag takes.
import { $, button, el } from './dom.js';

const rows = () => $('#compose-data-rows');

function row(key = '', value = ''): HTMLElement {
  const keyInput = el('input', 'data-key');
  keyInput.placeholder = 'key';
  keyInput.value = key;
  keyInput.setAttribute('aria-label', 'data key');
  const valueInput = el('input', 'data-value');
  valueInput.placeholder = 'value';
  valueInput.value = value;
  valueInput.setAttribute('aria-label', 'data value');
  const line = el('div', 'data-row', keyInput, valueInput);
  line.append(button('×', () => {
    line.remove();
    if (rows().children.length === 0) rows().append(row());
    rows().dispatchEvent(new Event('input', { bubbles: true }));
  }, 'remove-row'));
  return line;
}

/** The rows as `key=value` lines; a row with neither is skipped, one with a value and no key is kept (the check names it). */
export function dataRowsText(): string {
  return [...rows().querySelectorAll<HTMLElement>('.data-row')]
    .map((line) => [line.querySelector<HTMLInputElement>('.data-key')!.value.trim(), line.querySelector<HTMLInputElement>('.data-value')!.value] as const)
    .filter(([key, value]) => key !== '' || value !== '')
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/**
 * The keys the rows hold that hold `=`: `--data key=value` ends the key at the first `=`, so the panel (which
 * builds the message from those flags) would send another key than the one typed. They are refused instead.
 */
export function keysWithEquals(): string[] {
  return [...rows().querySelectorAll<HTMLInputElement>('.data-key')].map((input) => input.value.trim()).filter((key) => key.includes('='));
}

export function wireDataRows(changed: () => void): void {
  rows().append(row());
  $('#compose-data-add').replaceWith(button('+ add a key', () => {
    rows().append(row());
    rows().lastElementChild?.querySelector('input')?.focus();
    changed();
  }, 'add-row'));
}
