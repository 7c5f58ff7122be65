/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The compose panel (issue 22): a message from fields or pasted JSON, checked on every keystroke by the
// CLI's own message module (assembleMessage and validateMessage, bundled in by esbuild: there is no second
// copy of the rules), a phone preview, the `pushctl send` command to copy, and a send to this emulator.
// The app secret lives in its password field only: nothing stores it, and the copied command never holds it.
import { assembleMessage, type Assembled } from '../../message/assemble.js';
import { dryRunConflict } from '../../message/dry-run-conflict.js';
import type { MessageIssue, ValidationResult } from '../../message/types.js';
import { validateMessage } from '../../message/validate.js';
import { splitVariants, validateWithVariants } from '../../message/validate-variants.js';
import { EMPTY_FIELDS, flagsOf, flagWords, sendCommand, sendJsonCommand, TARGETING_FIELDS, type ComposeFields } from './compose-flags.js';
import { estimateAudience } from './audience-estimate.js';
import { dataRowsText, keysWithEquals, wireDataRows } from './data-rows.js';
import { EDIT_EVENT } from './entry-card.js';
import { fieldOfMessage, fieldOfPath, inPanelTerms, type PanelField } from './panel-terms.js';
import { $, button, copyButton, el, plural } from './dom.js';
import { dataTable, phone } from './phone.js';
import { hashOfMessage } from './url-state.js';

/** One finding, with the panel's field it is about (marked on that input) when it has one. */
interface Finding {
  field?: PanelField;
  /** The data key a finding under `data.<key>` is about: its row is marked. */
  dataKey?: string;
  /** The JSON path, shown on hover: what `pushctl validate` names. */
  path?: string;
  message: string;
  fix?: string;
}

/** What the panel's input comes to: the findings that stop it (every one), and the message when it assembles. */
interface Outcome {
  failures: Finding[];
  assembled?: Assembled;
  result?: ValidationResult;
}

const form = () => $<HTMLElement>('#compose-fields');
const jsonArea = () => $<HTMLTextAreaElement>('#compose-json');
let mode: 'fields' | 'json' = 'fields';

function readFields(): ComposeFields {
  const fields: Record<string, string | boolean> = { ...EMPTY_FIELDS };
  for (const input of form().querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[name]')) {
    fields[input.name] = input.value;
  }
  fields.data = dataRowsText();
  // Dry run sits beside the send button: it applies to pasted JSON as well as to the fields.
  fields.dryRun = $<HTMLInputElement>('#compose-dry-run').checked;
  if (!isComposeFields(fields)) throw new Error('the compose form has a field of the wrong kind');
  return fields;
}

/** The choices of the form's selects: a value outside them is not one the flags can be made of. */
const CHOICES: Partial<Record<keyof ComposeFields, readonly string[]>> = {
  type: ['notification', 'data'],
  audience: ['all', 'client-ids', 'targeting'],
  style: ['system', 'button'],
  onTap: ['app', 'url', 'activity'],
};

/** Every field of the form there, of its kind, and each select's value one of its choices. */
function isComposeFields(fields: Record<string, string | boolean>): fields is Record<string, string | boolean> & ComposeFields {
  return Object.entries(EMPTY_FIELDS).every(([key, empty]) => {
    const value = fields[key];
    const choices = CHOICES[key as keyof ComposeFields];
    return typeof value === typeof empty && (choices === undefined || choices.includes(String(value)));
  });
}

const failure = (error: unknown): Finding => {
  const { message, hint } = error as { message: string; hint?: string };
  const named = fieldOfMessage(message);
  return { ...(named ? { field: named.field } : {}), message: inPanelTerms(message), ...(hint ? { fix: inPanelTerms(hint) } : {}) };
};

/**
 * The message as the CLI would build and check it (the same functions `pushctl validate` calls). The CLI
 * stops at the first flag it cannot read; the panel sets that field aside and reads the others, so a bad
 * TTL does not hide a bad country.
 */
function evaluate(fields: ComposeFields): Outcome {
  if (mode === 'json') {
    try {
      const assembled = assembleMessage({ flags: {}, file: { name: '(pasted)', text: jsonArea().value } });
      // Variants are checked as `pushctl validate -f` checks them, each merged over the base.
      const result = validateWithVariants(assembled, {}, (a) => validateMessage(a.message));
      // A dry run's JSON (edit in compose) sent for real would deliver nothing: refused as pushctl send refuses it.
      const conflict = dryRunConflict(assembled.message, fields.dryRun);
      const failures = [...(splitVariants(assembled.message).variants === undefined ? [] : [VARIANTS]), ...(conflict ? [{ ...failure(conflict), field: undefined }] : [])];
      return { failures, assembled, result };
    } catch (error) {
      return { failures: [{ ...failure(error), field: undefined }] };
    }
  }
  let words = flagWords(fields);
  const gap = audienceGap(fields);
  const failures: Finding[] = [...(fields.type === 'data' ? keysWithEquals().map(keyWithEquals) : []), ...(gap ? [gap] : [])];
  for (;;) {
    try {
      const assembled = assembleMessage({ flags: flagsOf(words) });
      const result = validateMessage(assembled.message);
      // The gap is why the message has no condition: the validator's "condition is required" says it again, less well.
      return { failures, assembled, result: gap ? { ...result, errors: result.errors.filter((e) => e.path !== 'condition') } : result };
    } catch (error) {
      const found = failure(error);
      failures.push(found);
      const flag = fieldOfMessage((error as Error).message)?.flag;
      const rest = words.filter(([word]) => word !== flag);
      if (flag === undefined || rest.length === words.length) return { failures };
      words = rest;
    }
  }
}

/**
 * An audience chosen with nothing in it: its blank fields give no flag, so the CLI's rules would only say
 * that the message has no condition. The panel names the field left blank instead.
 */
function audienceGap(fields: ComposeFields): Finding | undefined {
  if (fields.audience === 'client-ids' && fields.clientIds.split(/[\s,]+/).every((id) => id === '')) {
    return { field: fieldOfPath('condition.client_ids')!, message: 'no client ID given', fix: 'type one or more client IDs, separated by commas or spaces' };
  }
  if (fields.audience === 'targeting' && TARGETING_FIELDS.every((name) => fields[name].trim() === '')) {
    return {
      field: fieldOfPath('condition')!,
      message: 'targeting with no criterion filled in',
      fix: 'fill in at least one of country, language, brand, model, os_version or app_version, or choose all devices',
    };
  }
  return undefined;
}

/** What the panel cannot send: one request per language, planned from the audience (docs/behaviour.md#variants). */
const VARIANTS: Finding = {
  path: 'variants',
  message: 'variants: the panel sends one request, and a message with variants is one request per language',
  fix: 'send it with the pushctl command below, which sends each language its variant',
};

/** A data key the --data flag cannot carry: named, its row marked, and the way to send it all the same. */
const keyWithEquals = (key: string): Finding => ({
  ...(fieldOfPath('data') ? { field: fieldOfPath('data')! } : {}),
  dataKey: key,
  message: `key ${JSON.stringify(key)} holds "=", and --data ends a key at its first "="`,
  fix: 'rename the key, or write the message in the JSON tab',
});

/** A validator's finding, named by the panel's field (`data "key"` for one data value, so two are told apart). */
const fromIssue = (issue: MessageIssue): Finding => {
  const dataKey = /^data\.(.+)$/.exec(issue.path)?.[1];
  const named = fieldOfPath(issue.path);
  const field = named && dataKey !== undefined ? { ...named, label: `${named.label} ${JSON.stringify(dataKey)}` } : named;
  return { ...(field ? { field } : {}), ...(dataKey ? { dataKey } : {}), path: issue.path, message: inPanelTerms(issue.message), ...(issue.fix ? { fix: inPanelTerms(issue.fix) } : {}) };
};

/** `field: message — fix`; the JSON path on hover. */
function findingItem(finding: Finding): HTMLElement {
  const item = el('li', '', `${finding.field ? `${finding.field.label}: ` : ''}${finding.message}${finding.fix ? ` — ${finding.fix}` : ''}`);
  if (finding.path) item.title = finding.path;
  return item;
}

function findingList(title: string, findings: readonly Finding[], className: string): HTMLElement | false {
  return findings.length > 0 && el('div', `issues ${className}`, el('h4', '', title), el('ul', '', ...findings.map(findingItem)));
}

/** Marks the inputs the errors are about (and unmarks the rest), so the eye finds them in the form. */
function markFields(errors: readonly Finding[]): void {
  const names = new Set(errors.flatMap((e) => (e.field ? [e.field.name] : [])));
  for (const input of form().querySelectorAll<HTMLElement>('[name]')) {
    const bad = names.has(input.getAttribute('name')!) && input.getAttribute('name') !== 'data';
    input.classList.toggle('invalid', bad);
    if (bad) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  const keys = new Set(errors.flatMap((e) => (e.dataKey ? [e.dataKey] : [])));
  const wholeData = errors.some((e) => e.field?.name === 'data' && !e.dataKey);
  for (const row of document.querySelectorAll<HTMLElement>('#compose-data-rows .data-row')) {
    const bad = wholeData || keys.has(row.querySelector<HTMLInputElement>('.data-key')!.value.trim());
    for (const input of row.querySelectorAll('input')) input.classList.toggle('invalid', bad);
  }
}

function destination(fields: ComposeFields) {
  return { baseUrl: location.origin, appId: $<HTMLInputElement>('#compose-app').value.trim() || 'demo-app', dryRun: fields.dryRun };
}

let latest: Outcome | undefined;

function showVerdict(outcome: Outcome): void {
  const verdict = $('#compose-verdict');
  const errors = [...outcome.failures, ...(outcome.result?.errors ?? []).map(fromIssue)];
  const warnings = (outcome.result?.warnings ?? []).map(fromIssue);
  markFields(errors);
  verdict.className = `verdict ${errors.length ? 'bad' : 'good'}`;
  // The CLI prints what it normalised only for a valid message: beside errors it would read as one.
  const notes = errors.length === 0 && outcome.assembled && outcome.result
    ? [...outcome.assembled.notes, ...outcome.result.notes].filter((n) => !(n.path === 'type' && n.rule === 'default')).map(fromIssue)
    : [];
  verdict.replaceChildren(
    el(
      'div',
      '',
      el('strong', 'verdict-line', errors.length ? `invalid: ${plural(errors.length, 'error')}, nothing would be sent` : `valid${warnings.length ? ` (${plural(warnings.length, 'warning')})` : ''}`),
      findingList('errors', errors, 'errors'),
      findingList('warnings', warnings, 'warnings'),
      findingList('normalised', notes, 'notes'),
    ),
  );
}

function showPreview(outcome: Outcome, fields: ComposeFields): void {
  const preview = $('#compose-preview');
  if (!outcome.assembled || !outcome.result) return void preview.replaceChildren();
  // The preview draws what was typed even while it has errors: the phone shows what it can.
  const shown = (outcome.result.body ?? outcome.assembled.message) as { notification?: unknown; data?: unknown };
  const notification = typeof shown.notification === 'object' && shown.notification !== null ? (shown.notification as Record<string, unknown>) : undefined;
  const data = typeof shown.data === 'object' && shown.data !== null ? (shown.data as Record<string, unknown>) : undefined;
  preview.replaceChildren(notification ? phone(destination(fields).appId, new Date(), notification) : data ? dataTable(data) : el('p', 'muted', 'nothing to preview yet'));
}

function update(): void {
  const fields = readFields();
  form().dataset.type = fields.type;
  form().dataset.audience = fields.audience;
  form().dataset.style = fields.style;
  form().dataset.onTap = fields.onTap;
  const outcome = (latest = evaluate(fields));
  showVerdict(outcome);
  showPreview(outcome, fields);
  estimateAudience(outcome.assembled?.message);
  const to = destination(fields);
  $('#compose-command').textContent = mode === 'json' ? sendJsonCommand(jsonArea().value.trim(), to) : sendCommand(flagWords(fields), to);
  $<HTMLButtonElement>('#compose-send').disabled = !sendable(outcome);
  $<HTMLButtonElement>('#compose-send').textContent = fields.dryRun ? 'dry run on this emulator' : 'send to this emulator';
}

const sendable = (outcome: Outcome) => outcome.failures.length === 0 && outcome.result !== undefined && outcome.result.errors.length === 0;

async function send(): Promise<void> {
  const outcome = latest;
  const status = $('#compose-status');
  if (!outcome || !sendable(outcome) || !outcome.result?.body) return;
  const fields = readFields();
  const secret = $<HTMLInputElement>('#compose-secret');
  if (secret.value === '') {
    // The service answers 21003 to no secret: say so before asking it.
    status.replaceChildren(el('span', 'bad', 'type the app secret first (the demo app\'s is demo-secret)'));
    secret.classList.add('invalid');
    secret.focus();
    return;
  }
  secret.classList.remove('invalid');
  const { appId } = destination(fields);
  const body = fields.dryRun ? { ...outcome.result.body, dry_run: true } : outcome.result.body;
  status.replaceChildren('sending…');
  try {
    const answer = await fetch(`/v1/message/push/${encodeURIComponent(appId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: secret.value },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as { status?: number; message?: string; result?: { message_id?: string } };
    const messageId = json.result?.message_id;
    if (json.status === 200 && messageId) {
      const link = el('a', '', messageId);
      link.href = hashOfMessage(messageId);
      status.replaceChildren(el('span', 'good', fields.dryRun ? 'dry run accepted: ' : 'accepted: '), link);
    } else {
      status.replaceChildren(el('span', 'bad', `${json.status ?? answer.status} ${json.message ?? ''}`));
    }
  } catch (error) {
    status.replaceChildren(el('span', 'bad', `the emulator did not answer (${(error as Error).message})`));
  }
}

function setMode(next: 'fields' | 'json'): void {
  if (next === 'json' && mode === 'fields' && latest?.assembled && latest.result) {
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

/** Opens an entry's message in the JSON tab, to change it and send it again. */
function editInCompose(json: string): void {
  toggleCompose(true);
  setMode('json');
  jsonArea().value = json;
  update();
  $('#compose').scrollIntoView({ block: 'start' });
}

/**
 * The app ID field starts as demo-app, the emulator's default app; an emulator started with its own apps
 * (`serve --app my-app:my-secret`) has no demo-app, so the field takes its first app that accepts pushes.
 */
async function defaultApp(): Promise<void> {
  const answer = await fetch('/v1/emulator/health').catch(() => undefined);
  const ids = answer?.ok ? ((await answer.json()) as { app_ids?: string[] }).app_ids : undefined;
  const input = $<HTMLInputElement>('#compose-app');
  if (!ids || ids.length === 0 || ids.includes('demo-app') || input.value !== input.defaultValue) return;
  input.value = ids[0]!;
  if (!$('#compose').hidden) update();
}

export function wireCompose(): void {
  void defaultApp();
  $('#compose').addEventListener('input', (event) => {
    if (event.target === $('#compose-secret')) return;
    // A new message: the answer to the last one no longer describes it.
    $('#compose-status').replaceChildren();
    update();
  });
  wireDataRows(update);
  document.addEventListener(EDIT_EVENT, (event) => editInCompose((event as CustomEvent<string>).detail));
  for (const tab of document.querySelectorAll<HTMLButtonElement>('#compose .tab')) tab.addEventListener('click', () => setMode(tab.dataset.mode as 'fields' | 'json'));
  $('#compose-toggle').addEventListener('click', () => toggleCompose());
  $('#compose-send').addEventListener('click', () => void send());
  $('#compose-actions').prepend(copyButton('copy as pushctl command', () => $('#compose-command').textContent ?? '', 'copy-command'));
  $('#compose-head').append(button('close', () => toggleCompose(false), 'close'));
}
