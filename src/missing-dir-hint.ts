// `--journal` and `--report` name files; neither makes the directory on its way (docs/behaviour.md#journal,
// #reports): one missing is most likely a mistyped path, and both say so in the same words.

/** The next step when `flag`'s path lies in `dir`, which does not exist. */
export const missingDirHint = (dir: string, flag: string): string => `the directory ${dir} does not exist: create it first, or give ${flag} a path in an existing directory`;
