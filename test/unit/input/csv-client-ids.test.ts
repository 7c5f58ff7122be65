// A CSV client-ID file (docs/behaviour.md#variants): RFC 4180 read as it arrives, its client_id column the IDs
// and its language column each ID's language, by position.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readClientIds } from '../../../src/input/read-client-ids.js';
import { RecipientLanguages } from '../../../src/input/recipient-languages.js';

async function read(chunks: string[]) {
  const languages = new RecipientLanguages();
  const list = await readClientIds(Readable.from(chunks.map((c) => Buffer.from(c))), undefined, { languages });
  const ids = list.ids.toArray();
  return { ids, languages: ids.map((_, i) => list.languages?.at(i)), duplicates: list.duplicates, hasLanguages: list.languages !== undefined };
}

describe('a CSV client-ID file', () => {
  it('reads the client_id and language columns wherever the header puts them, the others ignored', async () => {
    const text = 'country,Language,brand,CLIENT_ID\r\nKE,sw,"TECNO, Mobile",a\r\nFR,fr,"Say ""hi""",b\r\nBR,,x,c\r\n';
    expect(await read([text])).toEqual({ ids: ['a', 'b', 'c'], languages: ['sw', 'fr', undefined], duplicates: 0, hasLanguages: true });
  });

  it('keeps a quoted field with a newline whole, even split across pieces at any point', async () => {
    const text = '\uFEFFclient_id,language,note\n"id-1",fr,"two\nlines"\nid-2,pt-BR,"a,b"\n';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(text.length), { maxLength: 6 }), async (cuts) => {
        const at = [...new Set(cuts)].sort((x, y) => x - y);
        const chunks = [0, ...at].map((start, i) => text.slice(start, at[i] ?? text.length)).filter((c) => c !== '');
        expect(await read(chunks)).toEqual({ ids: ['id-1', 'id-2'], languages: ['fr', 'pt-BR'], duplicates: 0, hasLanguages: true });
      }),
    );
  });

  it('a repeated ID keeps its first place and its first language', async () => {
    expect(await read(['client_id,language\na,fr\nb,en\na,pt\n'])).toMatchObject({ ids: ['a', 'b'], languages: ['fr', 'en'], duplicates: 1 });
  });

  it('without a language column: the IDs alone, no languages', async () => {
    expect(await read(['client_id\nx\ny\n'])).toEqual({ ids: ['x', 'y'], languages: [undefined, undefined], duplicates: 0, hasLanguages: false });
  });

  it('names the line of an invalid client ID', async () => {
    await expect(read(['client_id,language\nok,fr\n"bad\u0007id",en\n'])).rejects.toThrow(/at line 3 of the client-ID CSV/);
  });

  it('refuses a CSV whose header names no client_id column, as before', async () => {
    await expect(read(['id,language\na,fr\n'])).rejects.toThrow(/looks like CSV/);
  });

  it('refuses a CSV separated by semicolons or tabs (a spreadsheet export) instead of sending its lines as IDs', async () => {
    for (const text of ['client_id;language\na;fr\n', '\uFEFFid;lang\r\na;fr\r\n', 'client_id\tlanguage\na\tfr\n']) {
      await expect(read([text]), JSON.stringify(text)).rejects.toThrow(/looks like CSV separated by (semicolons|tabs): line 1 .* is a header/);
    }
    // A plain list whose IDs hold a semicolon, without such a header, is read as it is.
    expect((await read(['a;1\nb;2\n'])).ids).toEqual(['a;1', 'b;2']);
  });

  it('refuses a one-column export whose first line is a column name (id, token, device_id) instead of sending it as an ID', async () => {
    for (const text of ['id\na\nb\n', '\uFEFFToken\r\na\r\n', '"device_id"\na\n', 'registration_ids\na\n']) {
      await expect(read([text]), JSON.stringify(text)).rejects.toThrow(/line 1 .* is a column name, not a client ID/);
    }
    // client_id is the CSV's own header: a one-column CSV, read as one.
    expect((await read(['client_id\na\nb\n'])).ids).toEqual(['a', 'b']);
    expect((await read(['identity-7\ntokenized\n'])).ids).toEqual(['identity-7', 'tokenized']);
  });
});
