// The one registry of problem codes. The `satisfies` clause makes the compiler reject a code that
// openapi.yaml does not list, and a missing one; a unit test checks the statuses match the contract.
import type { components } from '../../codegen/openapi.ts';

export type ProblemCode = components['schemas']['ProblemCode'];

export interface ProblemDefinition {
  readonly status: number;
  readonly title: string;
  /**
   * The failure may pass by itself (a dependency, the load, the clock): work that failed with it is
   * worth another attempt — an export job retries it with backoff. Absent: trying again gives the same answer.
   */
  readonly transient?: true;
}

export const PROBLEMS = {
  validation_failed: { status: 400, title: 'The request is invalid' },
  malformed_json: { status: 400, title: 'The body is not valid JSON' },
  invalid_params: { status: 400, title: 'The generator params are invalid' },
  invalid_template: { status: 400, title: 'The template is invalid' },
  unsupported_characters: { status: 400, title: 'The text has characters no bundled font draws' },
  unsupported_format: { status: 400, title: 'The generator does not offer this format' },
  invalid_recipe: { status: 400, title: 'The encoded recipe is invalid' },
  recipe_hash_mismatch: { status: 400, title: 'The recipe does not match its hash' },
  webhook_url_not_allowed: { status: 400, title: 'The webhook URL is not allowed' },
  invalid_signature: { status: 400, title: 'The signature is missing or invalid' },
  sign_in_failed: { status: 400, title: 'The sign-in request was refused' },
  malformed_request: { status: 400, title: 'The request is not well-formed HTTP' },
  unauthorized: { status: 401, title: 'Missing, invalid or revoked credentials' },
  insufficient_credits: { status: 402, title: 'Not enough credits' },
  signing_key_limit_reached: { status: 402, title: "The key's monthly credit limit is reached" },
  origin_denied: { status: 403, title: 'The origin is not allowed' },
  forbidden: { status: 403, title: 'Not allowed' },
  insufficient_scope: { status: 403, title: 'The API key lacks the scope this operation needs' },
  not_found: { status: 404, title: 'Not found' },
  route_not_found: { status: 404, title: 'No such route' },
  generator_not_found: { status: 404, title: 'No such generator' },
  template_not_found: { status: 404, title: 'No such template' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  job_not_cancellable: { status: 409, title: 'The job has already ended' },
  job_not_ready: { status: 409, title: 'The job has no result yet' },
  job_has_no_result: { status: 409, title: 'The job ended without a result' },
  idempotency_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  conflict: { status: 409, title: 'Conflict' },
  key_limit_reached: { status: 409, title: 'The workspace has too many active keys' },
  result_expired: { status: 410, title: 'The result has expired' },
  signed_url_expired: { status: 410, title: 'The signed URL has expired' },
  recipe_outdated: { status: 410, title: 'The recipe pins a generator version that is no longer served' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  render_too_large: { status: 413, title: 'The render is larger than the engine allows' },
  unsupported_media_type: { status: 415, title: 'The body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with a different request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  request_header_fields_too_large: { status: 431, title: 'The request line and headers are too large' },
  too_many_streams: { status: 429, title: 'Too many open event streams' },
  client_closed_request: { status: 499, title: 'The client closed the request' },
  internal_error: { status: 500, title: 'Internal error' },
  not_implemented: { status: 501, title: 'Not implemented yet' },
  upstream_error: { status: 502, title: 'An upstream dependency failed', transient: true },
  overloaded: { status: 503, title: 'The service is at capacity', transient: true },
  not_ready: { status: 503, title: 'The service is not ready', transient: true },
  animation_budget_exceeded: { status: 504, title: 'The animation exceeds the synchronous budget' },
  render_timeout: { status: 504, title: 'The render took too long', transient: true },
  // Assets (#42): uploaded images and fonts (docs/assets.md).
  invalid_image: { status: 400, title: 'The image cannot be decoded' },
  animated_image: { status: 400, title: 'The image is animated' },
  invalid_font: { status: 400, title: 'The font is not valid' },
  asset_not_found: { status: 404, title: 'No such asset' },
  asset_limit_reached: { status: 409, title: 'The workspace holds as many assets as it may' },
  asset_too_large: { status: 413, title: 'The asset file is too large' },
  image_too_large: { status: 413, title: 'The image has too many pixels' },
  unsupported_asset_type: { status: 415, title: 'The asset type is not accepted' },
  asset_type_mismatch: { status: 415, title: 'The file is not of its declared type' },
} as const satisfies Record<ProblemCode, ProblemDefinition>;

/** Where problem types are documented; `type` is this base plus the code. */
export const PROBLEM_TYPE_BASE = '/v1/reference#problem-';
