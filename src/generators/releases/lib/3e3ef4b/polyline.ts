// Shared by the line-drawing generators (flow-field, topography).

/** Ramer–Douglas–Peucker on a flat [x0, y0, x1, y1, ...] array. */
export function simplify(pts: number[], tol: number): number[] {
  const n = pts.length / 2;
  if (n <= 2) return pts;
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  const tol2 = tol * tol;
  while (stack.length) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const ax = pts[2 * a],
      ay = pts[2 * a + 1];
    const dx = pts[2 * b] - ax,
      dy = pts[2 * b + 1] - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1,
      bestD = tol2;
    for (let i = a + 1; i < b; i++) {
      const px = pts[2 * i] - ax,
        py = pts[2 * i + 1] - ay;
      let d2: number;
      if (len2 === 0) d2 = px * px + py * py;
      else {
        const cross = px * dy - py * dx;
        d2 = (cross * cross) / len2;
      }
      if (d2 > bestD) {
        bestD = d2;
        best = i;
      }
    }
    if (best >= 0) {
      keep[best] = 1;
      stack.push(a, best, best, b);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(pts[2 * i], pts[2 * i + 1]);
  return out;
}
