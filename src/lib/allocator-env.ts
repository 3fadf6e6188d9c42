// The allocator settings the service's processes run with, so that memory freed after large renders
// goes back to the system instead of staying resident (issue 40; measured in docs/benchmarks.md#memory).
// Two allocators hold a render's memory: the canvas library's (mimalloc: Skia's surfaces and pixel
// read-backs) and glibc's malloc (libvips, Node's buffers). Each reads its settings from the
// environment once, when it starts. (The third part, replacing the render threads that made large
// frames once the pool is idle, is src/engine/render-pool.ts.)

/**
 * mimalloc: give freed memory back at once instead of after a delay. A delayed give-back happens
 * only when some thread calls the allocator again after the delay, and in an idle service none does:
 * up to ~170 MB of a replaced render thread stayed resident. Measured: no CPU cost. Set by the entry
 * points (src/memory-settings.ts) before anything loads the canvas library.
 */
export const MIMALLOC_ENV: Readonly<Record<string, string>> = { MIMALLOC_PURGE_DELAY: '0' };

/**
 * glibc's malloc: a fixed trim threshold of 128 KB, and transparent huge pages for what it maps.
 * By default glibc raises its thresholds once a large buffer has been freed (buffers up to 32 MB
 * then come from its arenas, and each arena keeps up to 64 MB free), so after large renders the
 * render threads' arenas held ~300 MB. A fixed threshold turns that off: buffers of 128 KB and more
 * are mapped and unmapped, and arenas give back what they free. The cost is page faults each time
 * such a buffer is made; huge pages (where the kernel offers them on request, THP `madvise`) halve
 * it. glibc reads this only when the process starts, so it cannot be set from inside: `npm start`
 * and `npm run worker` set it unless GLIBC_TUNABLES is already set (package.json; test:
 * src/lib/allocator-env.test.ts), and so does every process the repository starts (the trial, the
 * benches). Another launcher (systemd, a container) should set it too: docs/scaling-out.md.
 */
export const GLIBC_TUNABLES = 'glibc.malloc.trim_threshold=131072:glibc.malloc.hugetlb=1';

/** Sets MIMALLOC_ENV's variables (unless already set) in the process's environment. */
export function applyMimallocEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(MIMALLOC_ENV)) env[name] ??= value;
}

/** The environment a service process is started with (as `npm start` starts it): GLIBC_TUNABLES unless `env` has its own. */
export function serviceProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, GLIBC_TUNABLES: env.GLIBC_TUNABLES ?? GLIBC_TUNABLES };
}

/**
 * The environment for FFmpeg: without our GLIBC_TUNABLES (an operator's own are kept). A child that
 * lives for one encode gains nothing from giving memory back and paid 15% more CPU in page faults.
 */
export function ffmpegEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.GLIBC_TUNABLES !== GLIBC_TUNABLES) return env;
  const out = { ...env };
  delete out.GLIBC_TUNABLES;
  return out;
}
