/** Where the built web app lives (web/dist). */
export const DIST_DIR: string;

/** The outputs of web/dist when it was built from the current sources, else undefined. */
export function currentWebBuild(): { file: string; bytes: number; gzipBytes: number }[] | undefined;

/** Builds web/dist unless it is current (or `force`; see build-web.mjs); each output file with its raw and gzip sizes. */
export function buildWeb(options?: { force?: boolean }): Promise<{ file: string; bytes: number; gzipBytes: number }[]>;
