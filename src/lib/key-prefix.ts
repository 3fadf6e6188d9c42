// The one rule for a blob key namespace (S3_PREFIX, the stores' `cache/` and `results/`): path
// segments of letters, digits, `.`, `_` and `-`, each ending in `/`, or empty. No `.` or `..`
// segment and no leading or doubled `/`, so a prefixed key is still a plain name everywhere. Here,
// in the lowest layer, so the settings parser and the blob stores both read it.
export function isSafeKeyPrefix(prefix: string): boolean {
  return /^([A-Za-z0-9._-]+\/)*$/.test(prefix) && !prefix.split('/').some((segment) => segment === '.' || segment === '..');
}
