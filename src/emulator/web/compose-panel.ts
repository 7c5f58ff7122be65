/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The compose panel (issue 22): a message from fields or pasted JSON, checked on every keystroke by the
// CLI's own message module (assembleMessage and validateMessage, bundled in by esbuild: there is no second
// copy of the rules), a phone preview, the `pushctl send` command to copy, and a send to this emulator.
// The app secret lives in its password field only: nothing stores it, and the copied command never holds it.
import { assembleMessage, type Assembled } from '../../message/assemble.js';
import type { MessageIssue, ValidationResult } from '../../message/types.js';
import { validateMessage } from '../../message/validate.js';
import { EMPTY_FIELDS, flagsOf, flagWords, sendCommand, sendJsonCommand, type ComposeFields } from './compose-flags.js';
import { $, button, copyButton, el, plural } from './dom.js';
import { dataTable, phone } from './phone.js';
import { hashOfMessage } from './url-state.js';

type Outcome = { failure: { message: string; hint?: string } } | { assembled: Assembled; result: ValidationResult };

const form = () => $<HTMLElement>('#compose-fields');
const jsonArea = () => $<HTMLTextAreaElement>('#compose-json');
let mode: 'fields' | 'json' = 'fields';

function readFields(): ComposeFields {
  const fields: Record<string, string | boolean> = { ...EMPTY_FIELDS };
  for (const input of form().querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[name]')) {
    fields[input.name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value;
  }
  return fields as unknown as ComposeFields;
}

/** The message as the CLI would build and check it: the same functions `pushctl validate` calls. */
function evaluate(fields: ComposeFields): Outcome {
  try {
    const assembled =
      mode === 'json' ? assembleMessage({ flags: {}, file: { name: '(pasted)', text: jsonArea().value } }) : assembleMessage({ flags: flagsOf(flagWords(fields)) });
    return { assembled, result: validateMessage(assembled.message) };
  } catch (error) {
    const { message, hint } = error as { message: string; hint?: string };
    return { failure: { message, ...(hint ? { hint } : {}) } };
  }
}

/** `path: message — fix`, as `pushctl validate` prints each finding. */
const issueLine = (issue: MessageIssue): string => `${issue.path ? `${issue.path}: ` : ''}${issue.message}${issue.fix ? ` — ${issue.fix}` : ''}`;

function issueList(title: string, issues: readonly MessageIssue[], className: string): HTMLElement | false {
  return issues.length > 0 && el('div', `issues ${className}`, el('h4', '', title), el('ul', '', ...issues.map((i) => el('li', '', issueLine(i)))));
}

function destination(fields: ComposeFields) {
  return { baseUrl: location.origin, appId: $<HTMLInputElement>('#compose-app').value.trim() || 'demo-app', dryRun: fields.dryRun };
}

let latest: Outcome | undefined;

function update(): void {
  const fields = readFields();
  form().dataset.type = fields.type;
  form().dataset.audience = fields.audience;
  form().dataset.style = fields.style;
  form().dataset.onTap = fields.onTap;
  const outcome = (latest = evaluate(fields));
  const verdict = $('#compose-verdict');
  const preview = $('#compose-preview');
  if ('failure' in outcome) {
    verdict.className = 'verdict bad';
    verdict.replaceChildren(el('strong', 'verdict-line', outcome.failure.message));
    if (outcome.failure.hint) verdict.append(el('div', 'hint', `hint: ${outcome.failure.hint}`));
    preview.replaceChildren();
  } else {
    const { result, assembled } = outcome;
    const errors = result.errors.length;
    verdict.className = `verdict ${errors ? 'bad' : 'good'}`;
    verdict.replaceChildren(
      el(
        'div',
        '',
        el('strong', 'verdict-line', errors ? `invalid: ${plural(errors, 'error')}, nothing would be sent` : `valid${result.warnings.length ? ` (${plural(result.warnings.length, 'warning')})` : ''}`),
        issueList('errors', result.errors, 'errors'),
        issueList('warnings', result.warnings, 'warnings'),
        issueList('normalised', [...assembled.notes, ...result.notes], 'notes'),
      ),
    );
    // The preview draws what was typed even while it has errors: the phone shows what it can.
    const shown = (result.body ?? assembled.message) as { notification?: unknown; data?: unknown };
    const notification = typeof shown.notification === 'object' && shown.notification !== null ? (shown.notification as Record<string, unknown>) : undefined;
    const data = typeof shown.data === 'object' && shown.data !== null ? (shown.data as Record<string, unknown>) : undefined;
    preview.replaceChildren(notification ? phone(destination(fields).appId, new Date(), notification) : data ? dataTable(data) : el('p', 'muted', 'nothing to preview yet'));
  }
  const to = destination(fields);
  $('#compose-command').textContent = mode === 'json' ? sendJsonCommand(jsonArea().value.trim(), to) : sendCommand(flagWords(fields), to);
  $<HTMLButtonElement>('#compose-send').disabled = 'failure' in outcome || outcome.result.errors.length > 0;
  $<HTMLButtonElement>('#compose-send').textContent = fields.dryRun ? 'dry run on this emulator' : 'send to this emulator';
}

async function send(): Promise<void> {
  const outcome = latest;
  const status = $('#compose-status');
  if (!outcome || 'failure' in outcome || !outcome.result.body) return;
  const fields = readFields();
  const { appId } = destination(fields);
  const body = fields.dryRun ? { ...outcome.result.body, dry_run: true } : outcome.result.body;
  status.replaceChildren('sending…');
  try {
    const answer = await fetch(`/v1/message/push/${encodeURIComponent(appId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: $<HTMLInputElement>('#compose-secret').value },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as { status?: number; message?: string; message_id?: string };
    if (json.status === 200 && json.message_id) {
      const link = el('a', '', json.message_id);
      link.href = hashOfMessage(json.message_id);
      status.replaceChildren(el('span', 'good', fields.dryRun ? 'dry run accepted: ' : 'accepted: '), link);
    } else {
      status.replaceChildren(el('span', 'bad', `${json.status ?? answer.status} ${json.message ?? ''}`));
    }
  } catch (error) {
    status.replaceChildren(el('span', 'bad', `the emulator did not answer (${(error as Error).message})`));
  }
}

function setMode(next: 'fields' | 'json'): void {
  if (next === 'json' && mode === 'fields' && latest && !('failure' in latest)) {
    // The JSON starts as what the fields built, so a message can be begun with fields and finished by hand.
    jsonArea().value = JSON.stringify(latest.result.body ?? latest.assembled.message, null, 2);
  }
  mode = next;
  form().hidden = next !== 'fields';
  jsonArea().hidden = next !== 'json';
  for (const tab of document.querySelectorAll<HTMLButtonElement>('#compose .tab')) tab.setAttribute('aria-selected', String(tab.dataset.mode === next));
  update();
}

export function toggleCompose(open = $('#compose').hidden): void {
  $('#compose').hidden = !open;
  $('#compose-toggle').setAttribute('aria-expanded', String(open));
  if (open) update();
}

export function wireCompose(): void {
  $('#compose').addEventListener('input', (event) => event.target !== $('#compose-secret') && update());
  for (const tab of document.querySelectorAll<HTMLButtonElement>('#compose .tab')) tab.addEventListener('click', () => setMode(tab.dataset.mode as 'fields' | 'json'));
  $('#compose-toggle').addEventListener('click', () => toggleCompose());
  $('#compose-send').addEventListener('click', () => void send());
  $('#compose-actions').prepend(copyButton('copy as pushctl command', () => $('#compose-command').textContent ?? '', 'copy-command'));
  $('#compose-head').append(button('close', () => toggleCompose(false), 'close'));
}
