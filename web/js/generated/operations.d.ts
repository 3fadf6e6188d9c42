// Types of operations.js (written by `npm run codegen` from openapi.yaml) for the tests that import it.
export const operations: Record<string, [string, string]> & {
  generate: [string, string];
  getJob: [string, string];
  listJobs: [string, string];
  getJobThumbnail: [string, string];
};
