import { describe, expect, it } from 'vitest';
import { assembleMessage, type AssembleInput } from '../../../src/message/assemble.js';
import { CliError, ExitCode } from '../../../src/errors.js';
import { validateAssembled } from '../../../src/message/validate-assembled.js';
import { thrownBy } from '../../helpers/cli-error.js';

const file = (json: unknown) => ({ name: 'msg.json', text: JSON.stringify(json) });
const build = (input: AssembleInput) => assembleMessage(input).message;
const failure = (input: AssembleInput): CliError => thrownBy(() => assembleMessage(input));

describe('assembleMessage', () => {
  it('builds a notification to all devices from flags alone, with default type and TTL noted', () => {
    const { message, notes } = assembleMessage({ flags: { all: true, title: 'Hi', desc: 'There' } });
    expect(message).toEqual({ type: 1, time_to_live: 86400, condition: { type: 0 }, notification: { title: 'Hi', desc: 'There' } });
    expect(notes.map((n) => n.path)).toEqual(['type', 'time_to_live']);
  });

  it('infers a data message when only data is given', () => {
    expect(build({ flags: { clientId: ['a'], data: ['k=v', 'x=a=b'] } })).toMatchObject({ type: 2, data: { k: 'v', x: 'a=b' } });
  });

  it('lets flags override the file field by field', () => {
    const message = build({
      file: file({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'old', desc: 'keep' }, data: { a: '1', b: '2' } }),
      flags: { title: 'new', ttl: '2h', data: ['b=3'] },
    });
    expect(message).toEqual({ type: 1, time_to_live: 7200, condition: { type: 0 }, notification: { title: 'new', desc: 'keep' }, data: { a: '1', b: '3' } });
  });

  it('maps every targeting flag, splitting comma lists', () => {
    const message = build({
      flags: { all: false, country: ['us,gb', 'de'], language: ['en'], brand: ['Tecno'], model: ['X1'], osVersion: ['33'], appVersion: ['1.2.0'], title: 't' },
    });
    expect(message.condition).toEqual({
      type: 1,
      targeting: { country: ['us', 'gb', 'de'], language: ['en'], brand: ['Tecno'], model: ['X1'], os_version: ['33'], app_version: ['1.2.0'] },
    });
  });

  it('puts raw --client-id values into the message', () => {
    expect(build({ flags: { clientId: ['a,b', 'c'], title: 't' } }).condition).toEqual({ type: 2, client_ids: ['a', 'b', 'c'] });
  });

  it('keeps clean recipients beside the message, with the duplicate count noted', () => {
    const { message, notes, clientIds } = assembleMessage({ flags: { clientId: ['a'], title: 't' }, recipients: { ids: ['a', 'b', 'c'], duplicates: 2 } });
    expect(message.condition).toEqual({ type: 2 });
    expect(clientIds).toEqual(['a', 'b', 'c']);
    expect(notes.some((n) => n.message.includes('2 duplicate'))).toBe(true);
  });

  it('maps style, icons, button and click actions', () => {
    expect(build({ flags: { all: true, style: 'button', icon: 'i.png', buttonText: 'Go', openUrl: 'https://x.test' } }).notification).toEqual({
      notification_type: 3,
      icon: 'i.png',
      button_text: 'Go',
      open_type: '2',
      open_content: 'https://x.test',
    });
    expect(build({ flags: { all: true, style: 'system', smallIcon: 's', smallIconColor: '#112233', openActivity: 'Main' } }).notification).toEqual({
      notification_type: 1,
      small_icon: 's',
      small_icon_color: '#112233',
      open_type: '1',
      open_content: 'Main',
    });
    expect(build({ flags: { all: true, title: 't', openApp: true } }).notification).toEqual({ title: 't', open_type: '1' });
  });

  it('accepts --type names and numbers', () => {
    for (const [text, type] of [['notification', 1], ['data', 2], ['1', 1], ['2', 2], ['DATA', 2]] as const) {
      expect(build({ flags: { all: true, type: text } }).type).toBe(type);
    }
  });

  it('fills --var placeholders in strings and reports unfilled ones by name (exit 3)', () => {
    const template = file({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'v{{version}}', desc: '{{ version }} is {{what}}' } });
    expect(build({ file: template, flags: { var: ['version=2.0', 'what=out'] } }).notification).toEqual({ title: 'v2.0', desc: '2.0 is out' });
    const error = failure({ file: template, flags: { var: ['version=2.0'] } });
    expect(error.exitCode).toBe(ExitCode.invalidMessage);
    expect(error.message).toContain('{{what}}');
    expect(error.message).toContain('notification.desc');
    expect(error.hint).toContain('--var what=');
  });

  it('names the file, line and column of a JSON syntax error (exit 3)', () => {
    const error = failure({ file: { name: 'bad.json', text: '{\n  "type": 1,\n}' }, flags: {} });
    expect(error.exitCode).toBe(ExitCode.invalidMessage);
    expect(error.message).toMatch(/bad\.json.*trailing comma at line 2, column 12/);
    expect(error.hint).toContain('remove the comma');
  });

  it('merges --data-file under --data and rejects a data file that is not an object', () => {
    expect(build({ flags: { all: true, data: ['a=2'] }, dataFile: { name: 'd.json', text: '{"a":"1","b":"x"}' } }).data).toEqual({ a: '2', b: 'x' });
    expect(failure({ flags: { all: true }, dataFile: { name: 'd.json', text: '[1]' } }).exitCode).toBe(ExitCode.invalidMessage);
  });

  it('refuses conflicting and malformed flags as usage errors (exit 2)', () => {
    const usage: [string, AssembleInput][] = [
      ['--all and client IDs', { flags: { all: true, clientId: ['a'] } }],
      ['--all and targeting', { flags: { all: true, country: ['US'] } }],
      ['client IDs and targeting', { flags: { clientId: ['a'], language: ['en'] } }],
      ['two click actions', { flags: { all: true, openApp: true, openUrl: 'https://x' } }],
      ['bad --type', { flags: { all: true, type: 'email' } }],
      ['bad --ttl', { flags: { all: true, ttl: 'soon' } }],
      ['zero --ttl', { flags: { all: true, ttl: '0' } }],
      ['sub-second --ttl', { flags: { all: true, ttl: '1500ms' } }],
      ['bad --style', { flags: { all: true, style: 'fancy' } }],
      ['--data without =', { flags: { all: true, data: ['novalue'] } }],
      ['--var without a file', { flags: { all: true, var: ['a=b'] } }],
    ];
    for (const [name, input] of usage) expect(failure(input).exitCode, name).toBe(ExitCode.usage);
  });
});

describe('validateAssembled', () => {
  it('checks rules on a sample and puts every recipient into the body', () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `id-${i}`);
    const result = validateAssembled(assembleMessage({ flags: { title: 't', clientId: [] }, recipients: { ids, duplicates: 0 } }));
    expect(result.errors).toEqual([]);
    expect(result.body!.condition).toEqual({ type: 2, client_ids: ids });
  });
  it('still refuses an empty recipient list', () => {
    const result = validateAssembled(assembleMessage({ flags: { title: 't' }, recipients: { ids: [], duplicates: 3 } }));
    expect(result.errors[0]!.path).toBe('condition.client_ids');
  });
});
