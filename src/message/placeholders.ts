// `{{name}}` placeholders in a message file, filled from `--var name=value`.
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export interface FillResult {
  value: unknown;
  /** Placeholder names that had no value, with the JSON path of the first string holding each. */
  missing: { name: string; path: string }[];
}

/** Replaces placeholders in every string value (not keys) of a parsed JSON document. Pure. */
export function fillPlaceholders(value: unknown, vars: Readonly<Record<string, string>>): FillResult {
  const missing = new Map<string, string>();
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') {
      return v.replace(PLACEHOLDER, (whole, name: string) => {
        if (Object.hasOwn(vars, name)) return vars[name]!;
        if (!missing.has(name)) missing.set(name, path);
        return whole;
      });
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}[${i}]`));
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, path ? `${path}.${k}` : k)]));
    }
    return v;
  };
  const filled = walk(value, '');
  return { value: filled, missing: [...missing].map(([name, path]) => ({ name, path })) };
}
