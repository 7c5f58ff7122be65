import { describe, expect, it } from 'vitest';
import { inActionTerms } from '../../../src/action/terms.js';
import { codeSpan } from '../../../src/output/markdown.js';

describe('inActionTerms', () => {
  it('says the prose in the inputs\' names and keeps a pasted command as the CLI runs it', () => {
    const command = 'pushctl resend 20260101-000000-abcd --client-ids-file ids.txt --app-id a --base-url http://127.0.0.1:1';
    const text = `the line 3 of --client-ids-file ids.txt is invalid; fix it, then send the rest with: ${codeSpan(command)}`;
    expect(inActionTerms(text)).toBe(`the line 3 of the client-ids-file input ids.txt is invalid; fix it, then send the rest with: \`${command}\``);
  });

  it('translates a code span that is no pushctl command, and text after a command', () => {
    expect(inActionTerms('set `--app-id`, or run `pushctl check --app-id a`; then --base-url')).toBe('set `the app-id input`, or run `pushctl check --app-id a`; then the base-url input');
  });

  it('a command holding a backtick keeps its longer fence whole', () => {
    const span = codeSpan("pushctl resend 'a`b' --base-url http://x");
    expect(span.startsWith('``')).toBe(true);
    expect(inActionTerms(`run ${span} --region`)).toBe(`run ${span} the region input`);
  });

  it('names a missing profile as given, quoted where the init command it drops quoted it', () => {
    expect(inActionTerms("create it with: pushctl init --profile 'eu west' --app-id <id>, or point --config at your file")).toBe("add a config file that defines profile 'eu west' to the repository (.pushctlrc.json or .pushctlrc.yaml)");
    expect(inActionTerms('the file has no profiles; add one with: pushctl init --profile eu')).toBe('the file has no profiles; define profile eu in it');
    expect(inActionTerms("the file has no profiles; add one with: pushctl init --profile 'eu west'")).toBe("the file has no profiles; define profile 'eu west' in it");
  });

  it('points an unknown audience at the config file, whatever form the init command it drops took', () => {
    for (const init of ["pushctl init --audience desk=<client-id>,<client-id>", "pushctl init --audience 'my phones'=<client-id>,<client-id>", 'pushctl init --audience=-desk=<client-id>,<client-id>']) {
      expect(inActionTerms(`add one with: ${init}, or write "audiences" in the config file`)).toBe('write "audiences" in the config file');
    }
  });

  it("names a chosen profile's own secret variable, which the step's env sets, beside the app-secret input", () => {
    const where = '"appSecret" in "profiles.india" of /repo/.pushctlrc.json (mode 600)';
    expect(inActionTerms(`supply the app secret: set PUSHCTL_APP_SECRET, pass --app-secret-file <path> or --app-secret-stdin, or put ${where}`)).toBe('supply the app secret: set the app-secret input to a repository secret');
    expect(inActionTerms(`supply the app secret: set PUSHCTL_APP_SECRET_INDIA or PUSHCTL_APP_SECRET, pass --app-secret-file <path> or --app-secret-stdin, or put ${where}`)).toBe(
      "supply the app secret: set PUSHCTL_APP_SECRET_INDIA in the step's env, or the app-secret input to a repository secret",
    );
  });

  // A value the workflow gave, quoted back to it, is what it gave: reworded, `--to "--file"` read as if the
  // to input had been set to "the file input", a value nobody wrote.
  it('keeps a quoted value as given', () => {
    expect(inActionTerms('--to "--file": no such audience; pass --to <name>')).toBe('the to input "--file": no such audience; pass the to input');
    expect(inActionTerms('a client ID "-f" on line 2 of --client-ids-file ids.txt')).toBe('a client ID "-f" on line 2 of the client-ids-file input ids.txt');
  });
});
