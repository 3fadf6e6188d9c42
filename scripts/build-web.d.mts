/** Where the built web app lives (web/dist). */
export const DIST_DIR: string;

/** Builds web/dist (see build-web.mjs); each output file with its raw and gzip sizes. */
export function buildWeb(): Promise<{ file: string; bytes: number; gzipBytes: number }[]>;
