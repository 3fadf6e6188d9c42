// Numbers as written into svg and css: two decimals, no "-0", so documents stay small and stable.
export function num(v: number): string {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}
