// How a setting is read from the environment: trimmed, empty counts as unset, and a value that does
// not parse becomes a problem in the shared list (loadConfig reports them all together) while the
// parser carries on with the default, so that every other setting is still checked.

export type Env = Readonly<Record<string, string | undefined>>;

/** What each concern's parser reads with; `problems` is the one list they all report into. */
export interface EnvReader {
  readonly str: (name: string) => string | undefined;
  /** An integer from `min` to `max`; the fallback when unset or invalid. */
  readonly int: (name: string, fallback: number, min: number, max: number) => number;
  /** 1/0, true/false, yes/no, on/off; undefined when unset or invalid. */
  readonly bool: (name: string) => boolean | undefined;
  /** Comma-separated, each entry trimmed, empty entries dropped. */
  readonly list: (name: string) => string[];
  readonly problems: string[];
}

export function envReader(env: Env, problems: string[]): EnvReader {
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string): boolean | undefined => {
    const raw = str(name)?.toLowerCase();
    if (raw === undefined) return undefined;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be 1/0, true/false, yes/no or on/off (got "${raw}")`);
    return undefined;
  };
  const list = (name: string): string[] =>
    (str(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return { str, int, bool, list, problems };
}
