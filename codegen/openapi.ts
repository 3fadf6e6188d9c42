// GENERATED FILE — do not edit by hand.
// Source: openapi.yaml. Regenerate with `npm run codegen`; `npm run codegen:check` (part of npm test) fails when stale.
export interface paths {
    "/v1/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assets
         * @description The workspace's assets, newest first; deleted ones are not listed. When more exist, a `Link`
         *     header with `rel="next"` carries the next page's URL. Never cached (`Cache-Control: no-store`).
         */
        get: operations["listAssets"];
        put?: never;
        /**
         * Upload an image or a font
         * @description Uploads one file as the raw request body, its type in `Content-Type`: an image
         *     (`image/png`, `image/jpeg`, `image/webp`) or a font (`font/ttf`, `font/otf`, `font/woff2`).
         *     Templates draw images and set text in fonts by the asset's `id`, which is derived from the
         *     file: `ast_` and the first 32 hex digits of the SHA-256 of the bytes as uploaded. The same bytes
         *     uploaded again to the same workspace are the same asset: 200 with it (an asset deleted earlier
         *     is restored), where a new one is 201 with its URL in `Location`. An upload is therefore safe to
         *     retry as it is, without an `Idempotency-Key`.
         *
         *     Checked before anything is stored, every refusal a 4xx naming `body` or the `Content-Type`
         *     header: the size while the body is read (413 `asset_too_large`: 10 MiB for an image, 20 MiB for a
         *     font), the bytes' magic number against the declared type (415 `asset_type_mismatch`), then an
         *     image's header — at most 40,000,000 pixels (413 `image_too_large`), one frame (400
         *     `animated_image`) — before it is decoded once (400 `invalid_image` when it is truncated or
         *     corrupt), and a font on a thread of its own with memory and time limits (400 `invalid_font`).
         *     An image is stored normalized — 8-bit sRGB RGBA, EXIF orientation applied, as a lossless PNG —
         *     and a font as uploaded. A workspace holds at most 1,000 assets (409 `asset_limit_reached`).
         */
        post: operations["createAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description `ast_` and the first 32 hex digits of the SHA-256 of the uploaded file; any other id answers 404 `asset_not_found`.
                 * @example ast_0d1f5e9a3b7c4e2f8a6b1c0d9e8f7a6b
                 */
                id: components["parameters"]["AssetId"];
            };
            cookie?: never;
        };
        /**
         * One asset
         * @description One asset of the workspace. A deleted asset, and another workspace's, answer 404
         *     `asset_not_found` exactly like a missing one. Never cached (`Cache-Control: no-store`).
         */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        /**
         * Delete an asset
         * @description Deletes the asset: 204, or 404 `asset_not_found` when the workspace has no such asset (or it is
         *     already deleted). It leaves the list, `GET` answers 404, and new templates cannot use it; template
         *     versions that already use it keep rendering, because the stored file stays (a soft delete).
         *     Uploading the same bytes again restores it, with the same id.
         */
        delete: operations["deleteAsset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Configured sign-in providers and the current session
         * @description What a browser needs before it signs in: the `mode` (`local` or `hosted`), the configured sign-in
         *     providers with the URL that starts each sign-in, the current session when a valid session cookie
         *     came along (else `null`), and whether the local gateway authenticates same-origin browser requests
         *     (local mode on a loopback host). Public, not rate limited, never cached (`Cache-Control: no-store`).
         */
        get: operations["getAuthConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bases/{baseId}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Render a signed base with slot values
         * @description A signed base's public URL (`POST /v1/url-signing-keys/{id}/bases`) with the page's slot values
         *     as query parameters, e.g. `/v1/bases/sb_…/<signature>.png?title=Hello%20world`. The path's
         *     signature alone decides (an `Authorization` header or cookie is ignored): an unknown or deleted
         *     base, a changed signature or extension, or a revoked key answer 401 `unauthorized`; past the
         *     base's expiry 410 `signed_url_expired`. A parameter that is not a slot, a slot given twice,
         *     a required slot missing, or a value its slot's rules (or the generator's param) refuse answer
         *     400 `validation_failed` naming the parameter (`query.title`); nothing is rendered or charged.
         *
         *     The base's recipe with the slot values is resolved as `POST /v1/url-signing-keys/{id}/sign`
         *     would resolve it, and answered as that signed recipe URL is: the same bytes, `ETag` (the
         *     quoted recipe hash) and `X-Service-Recipe-Hash`, so each set of slot values has its own; the
         *     same public answer (`Cache-Control: public, max-age=N, immutable`, N the key's `maxAgeSeconds`
         *     or less when the base expires sooner; `Access-Control-Allow-Origin: *`, `Vary: Origin`,
         *     `Cross-Origin-Resource-Policy: cross-origin`, no `X-Request-Id` or `RateLimit` headers; 304 to
         *     a matching `If-None-Match`); the same limits (per client address, per signing key for misses:
         *     429) and charges (a miss is charged to the key's workspace within the key's `monthlyCreditLimit`:
         *     402 `signing_key_limit_reached`, or `insufficient_credits`), whose problems say nothing about
         *     the workspace.
         */
        get: operations["renderSigningBase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render up to 50 items
         * @description Each item is rendered and reported on its own; one bad item never fails the others.
         *     Identical items render once. Results land in the render cache, so their recipe URLs answer
         *     `X-Service-Cache: HIT`. Each item is charged on its own (in hosted mode), so the answer says
         *     what was paid for: if the database goes away during a batch, the items rendered so far are
         *     reported (and charged, at once or when the database is back) and every other item is `ok:
         *     false` with `code: not_ready`, charged nothing — retry those. A batch of which no item could be
         *     rendered answers 503 and costs nothing.
         */
        post: operations["renderBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balance and purchases
         * @description The workspace's balance (`credits` bought minus spent, `reserved` by renders and jobs in flight,
         *     `available` to spend), the credit packs on sale and the workspace's last 100 purchases, newest
         *     first. Buy a pack with `POST /v1/billing/checkout`. In local mode (and hosted mode without
         *     Stripe) this answers too, while checkout answers 501; local mode charges nothing, so its balance
         *     is what an operator granted (usually 0). Never cached (`Cache-Control: no-store`).
         */
        get: operations["getBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start buying a credit pack
         * @description Creates a payment-provider checkout session and returns the URL to send the browser to.
         */
        post: operations["createCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payment-provider events
         * @description Authenticated by a signature over the unmodified raw body, in the `Payment-Signature` header
         *     (`Stripe-Signature` is accepted instead). Send exactly one of the two: a request carrying both
         *     is 400 `invalid_signature`, whatever they hold. Timestamps more than 300 s away are refused.
         *     Each event id is processed exactly once.
         */
        post: operations["handlePaymentWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/generate/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Synchronous render
         * @description Renders the recipe and returns the file. Animated generators render gif or mp4 within the
         *     animation budget; longer work answers 504 `animation_budget_exceeded` and belongs in `POST /v1/jobs`.
         *     Sizes outside the engine limits are rejected, never resized. Hosted renders reserve credits.
         */
        post: operations["generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/generators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All generators
         * @description Every generator, sorted by slug, with what a recipe needs: the formats it renders, its `version`
         *     (part of every recipe hash, so a changed generator never serves a stale file), its default params,
         *     `paramSchema` (the JSON Schema that params are validated against) and, for animated generators,
         *     the default frame rate and frame count. Public and free, not rate limited;
         *     `Cache-Control: public, max-age=60`.
         */
        get: operations["listGenerators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/generators/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One generator
         * @description One generator, as in `GET /v1/generators`: use its `defaults` and `paramSchema` to build a
         *     recipe's `params`. `versions` lists every version it has released, oldest first, with its
         *     release date and status: a recipe URL pinning a `deprecated` version renders the same bytes
         *     as it always has until its `sunsetAt` (at least 12 months after it was superseded), then
         *     answers 410 `recipe_outdated` naming the successor, except for files it rendered before,
         *     which stay served (docs/versioning.md). An unknown slug answers 404 `generator_not_found`; a
         *     slug that breaks the pattern, 400 `validation_failed`. Public and free, not rate limited;
         *     `Cache-Control: public, max-age=60`.
         */
        get: operations["getGenerator"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and versions
         * @description Liveness: answers 200 while the process serves requests. It checks no dependency (that is
         *     `GET /v1/ready`), so a load balancer can call it often. The body names the engine and renderer
         *     versions (the builds that shape the bytes), the number of generators, the deployed revision and
         *     every output format's media type, file extension and kind (`formats`).
         *     Public: no credentials, not rate limited, never cached (`Cache-Control: no-store`).
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export history
         * @description Newest first. When more jobs exist, a `Link` header with `rel="next"` carries the next page's URL.
         */
        get: operations["listJobs"];
        put?: never;
        /**
         * Queue a durable export
         * @description Queues a durable export of one recipe and answers 202 at once with the job (`status: queued`) and
         *     its URL in `Location`. Follow it with `GET /v1/jobs/{id}`, the event stream
         *     `GET /v1/jobs/{id}/events` or a `webhookUrl`, then download the file from
         *     `GET /v1/jobs/{id}/result`; it is byte-identical to the synchronous render of the same recipe. Use
         *     jobs for work too long for a synchronous render (animations over the budget).
         *
         *     The generator is given as `slug` or its alias `generator` (with both, they must agree). The recipe
         *     is checked at submission exactly as a render checks it (params, format, size limits), so a bad
         *     recipe is refused with 4xx and nothing is queued. In hosted mode the render's credits are reserved
         *     at submission (402 `insufficient_credits` if they are not available; nothing when the result is
         *     already in the render cache), committed when the job completes and released when it fails or is
         *     cancelled. Submitted with an API key, the job's credits count against the key's
         *     `monthlyCreditLimit` at submission, in the same transaction (402 `signing_key_limit_reached` past
         *     it, nothing queued; local mode counts them too), and go back to the key's month when the job is
         *     cancelled while queued or ends without being charged. Transient failures are retried, up to 3 attempts in all. A completed job's result stays
         *     downloadable for 7 days (`expiresAt`). Safe to retry with `Idempotency-Key`. Any credential of the
         *     workspace: an API key, a session (with a listed `Origin`) or the local gateway.
         *
         *     While the store of results (object storage) is known to be unreachable, a submission answers 503
         *     `not_ready` with `Retry-After` and nothing is queued or reserved: its result could not be stored.
         *     A job accepted before the outage renders and waits for storage (`STORAGE_OUTAGE_WAIT_SECONDS`)
         *     without holding up the jobs queued behind it.
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Job progress and result availability
         * @description The job's `status` (`finished` turns true when it can no longer change), `progress` (0 to 1), `attempts` and, once it completed, `resultReady`,
         *     `resultUrl` and `expiresAt`; a failed job carries `error`. `cancelled` turns true as soon as a
         *     cancel was accepted. Poll it (`Cache-Control: no-store`) or follow `GET /v1/jobs/{id}/events`
         *     instead. A job of another workspace answers 404 exactly like a missing one.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued or running export
         * @description A queued job is cancelled at once (`status: cancelled`). A running job answers at once with
         *     `cancelled: true` and `status: running`: its worker stops it (FFmpeg killed, the credit hold
         *     released) within 2 s, then its status turns `cancelled` (watch `GET /v1/jobs/{id}`, the event
         *     stream or the `job.cancelled` webhook). A finished job answers 409 `job_not_cancellable`.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live progress as Server-Sent Events
         * @description Emits `progress` events (`{"progress":0.42}`) and `status` events (the Job object) until the job
         *     ends, then closes. The first event is the current Job object. When the serving process shuts
         *     down, the stream ends with `retry: 1000` and a `reconnect` event (`{"reason":"shutting down","retryMs":1000}`):
         *     reconnect (EventSource does so by itself) and another process continues the stream.
         *
         *     A workspace may hold `EVENT_STREAMS_PER_WORKSPACE` open streams per server process (default 20);
         *     one more answers 429 `too_many_streams` until a stream closes. Streams of the same job share one
         *     watcher, so following a job from many tabs costs the database one read per 250 ms.
         */
        get: operations["streamJobEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a completed export
         * @description Streams the result file from wherever it is stored (also when `resultUrl` is a presigned object-storage URL). 409 `job_not_ready` while the job is queued or running; 409 `job_has_no_result` when it failed or was cancelled (it never will have one); 410 `result_expired` after the retention period.
         */
        get: operations["getJobResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A small picture of a completed export
         * @description A still of the job's recipe at most 160 CSS pixels on its longer side (frame 0 of an animation),
         *     webp when the generator offers it (else png), at pixel ratio `pr` — for lists of exports.
         *     Free (the job paid) and cached. 409 `job_not_ready` while the job is queued or running;
         *     409 `job_has_no_result` when it failed or was cancelled.
         */
        get: operations["getJobThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List keys
         * @description Labels, prefixes, scopes, monthly limits and this month's spending, dates and revocation status; never secrets or hashes.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create a key
         * @description The secret is returned once, in this response. Only its hash is stored. `scopes` limits what
         *     the key may call (absent: everything); `monthlyCreditLimit` what its renders and export jobs may
         *     cost per UTC month. A key with scopes may create keys only within its own scopes (403
         *     `insufficient_scope` naming the first one it lacks).
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a key
         * @description Revokes the key immediately; its next use answers 401 on this process, and on every other process once the revocation's notification reaches it (sent as the revocation commits). Revoking twice is harmless.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The MCP endpoint for AI agents (Streamable HTTP)
         * @description The service as a Model Context Protocol server, over the Streamable HTTP transport in stateless
         *     mode: each `POST` carries one JSON-RPC message from the client (`initialize`, `tools/list`,
         *     `tools/call`, a notification, a response) and is answered on its own, with no session (no
         *     `Mcp-Session-Id`). A request is answered 200 with its JSON-RPC response as `application/json`
         *     (the transport's JSON form: never an event stream), a notification or a response 202 with no body.
         *     `GET` and `DELETE` answer 405: a stateless server has no stream to open and no session to end.
         *
         *     The tools (`list_generators`, `describe_generator`, `list_templates`, `render`, `sweep`,
         *     `sign_url`, `quote`, `export`, `job_status`; docs/mcp.md) call this API with the caller's own
         *     `Authorization`, so every call is checked, rate limited and charged as the operation it makes:
         *     a `render` is a `POST /v1/generate/{slug}` of the workspace. An API key only: a session cookie
         *     or the local gateway is refused with 401 (the tools would have no credentials to call with). A tool the API refuses answers a result with `isError: true` and the problem's code,
         *     detail and issues, not a JSON-RPC error. Bodies are limited as every operation's (one JSON
         *     object; a batch array is refused with 400, as the protocol's 2025-06-18 revision dropped them).
         *     A key created with scopes needs `mcp` to connect, and each tool the scope of the operation it
         *     makes (`render` for a render; a refused tool answers `insufficient_scope`).
         */
        post: operations["mcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The authenticated workspace owner
         * @description Whom the credentials belong to: how the request authenticated (`api_key`, `session`, or `local`
         *     for the local gateway), the signed-in user (`null` for API keys and in local mode), the workspace,
         *     and its credit balance (`null` in local mode, which performs no credit checks). Credentials whose
         *     workspace no longer exists answer 401. Never cached (`Cache-Control: no-store`).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This interface description as JSON
         * @description This document as JSON: the same one that routes and validates every request, so it cannot drift
         *     from the service. Generate typed clients from it (see the README's *Typed client*). Every example
         *     in it is validated against its schema, and every request example is sent to the service, by the
         *     test suite. Public, not rate limited; `Cache-Control: public, max-age=300`.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List presets
         * @description Every preset of the workspace, newest first. Each `recipeHash` is the hash the preset renders to
         *     now, so it follows generator versions. Never cached (`Cache-Control: no-store`).
         */
        get: operations["listPresets"];
        put?: never;
        /**
         * Save a recipe under a name
         * @description Saves a recipe under a name in the workspace and answers 201 with the preset and its URL in
         *     `Location`; render it with `GET /v1/presets/{id}/render`. The recipe is checked as a render would
         *     check it (an unknown generator 404, bad params or format 400, a size over the engine budget 413
         *     `render_too_large`) but nothing is rendered or charged. It is stored exactly as sent (defaults are
         *     not filled in), with the hash it resolves to. A workspace holds at most 500 presets (409 `conflict`).
         */
        post: operations["createPreset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/presets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        /**
         * One preset
         * @description One preset of the workspace; a preset of another workspace answers 404 exactly like a missing one.
         *     `recipeHash` is the `ETag` that `GET /v1/presets/{id}/render` answers now. Never cached
         *     (`Cache-Control: no-store`).
         */
        get: operations["getPreset"];
        put?: never;
        post?: never;
        /**
         * Delete a preset
         * @description Deletes the preset: 204, or 404 when the workspace has no such preset. Files and recipe URLs
         *     rendered from it keep working, because a recipe URL carries its whole recipe.
         */
        delete: operations["deletePreset"];
        options?: never;
        head?: never;
        /**
         * Change a preset
         * @description Fields present in the body replace the stored ones (JSON merge semantics at the top level).
         */
        patch: operations["updatePreset"];
        trace?: never;
    };
    "/v1/presets/{id}/render": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        /**
         * Render a preset
         * @description Renders the preset's recipe exactly as `POST /v1/generate/{slug}` would, with the same headers
         *     and caching. With a session cookie the request must be same-origin (`Sec-Fetch-Site:
         *     same-origin` or a listed `Origin`), else 403 `origin_denied` and nothing is spent.
         */
        get: operations["renderPreset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit cost table and credit packs
         * @description What renders cost and which credit packs are on sale: the same table that charges every render in
         *     hosted mode and fills the `X-Service-Credits` header. Local mode charges nothing. Public, not rate
         *     limited; `Cache-Control: public, max-age=300`.
         */
        get: operations["getPricing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a render, a batch or a job before sending it
         * @description What the call in the body would charge now, and how long it would take, without rendering,
         *     reserving or charging anything: a quote changes nothing, so it is safe to repeat (it counts
         *     against the rate limit like any request). The body holds exactly one call: `render` (a
         *     `POST /v1/generate/{slug}` body with its `slug`, as a batch item), `batch` (a `POST /v1/batch`
         *     body) or `job` (a `POST /v1/jobs` body). It is checked as that call checks it: the same 400
         *     problems, each naming its field under `body.render`, `body.batch.items.{i}` or `body.job`, and
         *     404 for a generator or template (`tpl_…`) that does not exist in the workspace; a batch reports
         *     an item that could not render in its place in `items`, as the batch does.
         *
         *     `credits` is what the call would charge if sent now, by the one pricing rule of every render
         *     (`GET /v1/pricing`): a recipe whose file is already in the render cache costs 0 (`cached: true`),
         *     and local mode, which performs no credit checks, charges 0. It is a forecast: a render sent later
         *     pays for what the cache holds then. `estimatedMs` is an estimate of the render time from a simple
         *     model — a fixed part plus the output pixel-frames times a rate per format, the slowest
         *     generator's measured on a 2-core machine — so most renders take less and a busy service longer;
         *     `fitsSyncBudget` compares it with the time a synchronous render may take (`ANIMATION_BUDGET_MS`
         *     for a gif or mp4, else `RENDER_TIMEOUT_MS`): false means `POST /v1/generate/{slug}` would likely
         *     answer 504, so send it as a job.
         */
        post: operations["createQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Database, FFmpeg and blob store readiness
         * @description Pings the database, checks FFmpeg with a tiny real encode (two 16×16 frames to mp4 and gif,
         *     with the renders' own arguments) and reads from the blob store (with `BLOB_STORE=s3`, one
         *     request to the bucket: missing bucket or refused credentials are not ready). The FFmpeg and
         *     blob store results are cached for 30 s and refreshed in the background, so this answers fast.
         *     503 `not_ready` with the same body when any is not ready.
         */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference page
         * @description An HTML page rendering this document. Fully offline; no third-party requests.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/render/{recipeHash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Render from an encoded recipe
         * @description The server decodes `r`, canonicalizes it and re-hashes it; a hash that differs from `recipeHash`
         *     answers 400 `recipe_hash_mismatch`. `format`, `w`, `h` and `pr` override the recipe and obey the
         *     same limits as `size`; `q` overrides a jpeg's `quality` (400 `validation_failed` naming `query.q`
         *     when the format rendered is not jpeg). A jpeg recipe asked for in another `format` leaves its
         *     `quality` behind. Authentication is required: an API key, a same-origin session, or a
         *     **signed URL** (`kid`, optional `exp`, then `sig` last; see the `signedUrl` scheme and
         *     `POST /v1/url-signing-keys/{id}/sign`), which `<img>` tags, crawlers, e-mail and CDNs can use.
         *     With a session cookie the request must be same-origin (`Sec-Fetch-Site: same-origin` or a listed
         *     `Origin`), else 403 `origin_denied` and nothing is spent. A request with an `Origin` that is
         *     not allowed gets 403 `origin_denied`, signed or not (a plain `<img>` sends none).
         *     Every answer to a signed URL, success or problem, is public: `Access-Control-Allow-Origin: *`,
         *     `Vary: Origin` and `Cross-Origin-Resource-Policy: cross-origin`, the same with no `Origin` and
         *     with a listed one, so `<img crossorigin>`, a canvas and `fetch()` on an allowed page read it, and
         *     a page sees why a failed one failed. Its problems say nothing about the workspace behind it: a
         *     402 says the image is unavailable and why in general terms, without `cost`, `balance`, `limit`
         *     or `spent`; those go only to the workspace's own callers.
         *
         *     A signed URL is decided by its signature alone (an `Authorization` header or cookie on it is
         *     ignored) and has one spelling, the service's, byte for byte: a changed, added, removed or
         *     reordered parameter, a parameter after `sig`, a repeated parameter, any other spelling (a name
         *     or value percent-encoded, `%73ig=` for `sig=`), an unknown or revoked `kid`, or `kid`/`exp`
         *     without `sig` answer 401 `unauthorized`; past `exp` 410 `signed_url_expired`. Its 200 and 304 are public:
         *     `Cache-Control: public, max-age=N, immutable` (N = the key's `maxAgeSeconds`, or less when `exp`
         *     comes sooner), without `X-Request-Id` or `RateLimit` headers. A signed render that misses the
         *     cache is charged to the key's workspace and counts against the key's monthly limit (402
         *     `signing_key_limit_reached`).
         */
        get: operations["renderRecipe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template-starters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the starter templates
         * @description The templates that ship with the service (the files of `starters/`), each as the body
         *     `POST /v1/templates` takes: create one as it is, or start a design from it. A starter names no
         *     asset: an image layer takes its asset from a variable, which a render (or a sample value in
         *     the variable's `examples`) sets to an upload. The same for every workspace. See
         *     [starters](docs/templates.md#starters).
         */
        get: operations["listTemplateStarters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates
         * @description The workspace's templates, newest first, each at its latest version. When more exist, a `Link`
         *     header with `rel="next"` carries the next page's URL. Never cached (`Cache-Control: no-store`).
         */
        get: operations["listTemplates"];
        put?: never;
        /**
         * Create a template
         * @description Creates a template — a size, the variables a render fills in (a JSON Schema of an object) and
         *     layers drawn in order — as its version 1, and answers 201 with it and its URL in `Location`.
         *     Render it with `POST /v1/generate/{slug}`, the template's id as the slug (`tpl_…` for its
         *     latest version, `tpl_…@2` for version 2). The template is checked whole: its shape by this
         *     contract, and then what a schema cannot say — unique layer ids, generators and their params,
         *     `{{variable}}` references, bundled font families, and that every asset it names is the
         *     workspace's and of the right kind (400 `invalid_template` naming each field). A workspace
         *     holds at most 500 templates (409 `conflict`). See [templates](docs/templates.md).
         */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        /**
         * One template
         * @description The template at its latest version, with the list of its versions. Another workspace's
         *     template answers 404 exactly like a missing one. Never cached (`Cache-Control: no-store`).
         */
        get: operations["getTemplate"];
        /**
         * Save a new version
         * @description Replaces the template with the body as a new version (n + 1) and answers it. Earlier versions
         *     never change and keep rendering: a recipe pins its version, so recipe URLs, signed URLs and
         *     presets made from them give the same bytes as before. Checked as `POST /v1/templates` checks.
         */
        put: operations["updateTemplate"];
        post?: never;
        /**
         * Delete a template
         * @description Deletes the template and all its versions: 204, or 404 when the workspace has no such
         *     template. From then on its recipe URLs, signed URLs and presets answer 404 `template_not_found`;
         *     files already rendered are unaffected. Its id is never used again.
         */
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
                /**
                 * @description The version number, from 1.
                 * @example 1
                 */
                version: number;
            };
            cookie?: never;
        };
        /**
         * One version of a template
         * @description A version exactly as it was saved; versions never change. Never cached (`Cache-Control: no-store`).
         */
        get: operations["getTemplateVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a template draft
         * @description Renders a template that is not saved — the body `POST /v1/templates` and `PUT /v1/templates/{id}`
         *     take, in `template` — with a render's fields (`params`, `seed`, `size`, `format`, `quality`), so
         *     an editor can show every edit before it becomes a version. The draft is checked as a save
         *     checks it (400 `invalid_template` naming fields under `body.template`) and its params as a
         *     render's (400 `invalid_params`). A preview is **free** (`X-Service-Credits: 0`) and is neither
         *     a recipe nor a cached file: no `ETag`, no recipe headers, `Cache-Control: no-store`, nothing kept
         *     in the render cache. It is a still (png, webp or jpeg; an animated template shows its first
         *     frame) of at most 2,073,600 output pixels (1920×1080; width × pixelRatio × height × pixelRatio),
         *     else 400 `validation_failed` naming `body.size`. It counts against the request rate limits like
         *     any call. `X-Service-Text-Fit` says how each text layer was set: the size it shrank to, its
         *     lines, and whether it was cut with "…". See [the template editor](docs/web-app.md#the-template-editor).
         */
        post: operations["previewTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/url-signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List URL signing keys
         * @description Labels, prefixes, limits, this UTC month's spending, dates and revocation status; never secrets or signing keys.
         */
        get: operations["listUrlSigningKeys"];
        put?: never;
        /**
         * Create a URL signing key
         * @description A key that signs public recipe URLs (`GET /v1/render/{recipeHash}` with `kid`, `exp` and `sig`),
         *     separate from API keys, whose secrets never go into a URL. The secret (`svc_sign_…`) is
         *     returned once, in this response. The service keeps SHA-256 of it (the HMAC key, so it can
         *     sign and verify), never the secret itself: a copy of the database can sign for active keys, so
         *     revoke every key should the database leak. A workspace holds at most 100 active URL signing keys.
         */
        post: operations["createUrlSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/url-signing-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a URL signing key
         * @description Revokes the key immediately: every URL it signed answers 401 on every process from now on
         *     (signed requests read their key's row; nothing is kept in memory). Copies a CDN or browser
         *     already holds stay until their `max-age` ends. Revoking twice is harmless.
         */
        delete: operations["revokeUrlSigningKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/url-signing-keys/{id}/bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a key's signed bases
         * @description The bases of this key, newest first, each with its URL (a revoked key's too; their URLs answer 401).
         */
        get: operations["listSigningBases"];
        put?: never;
        /**
         * Create a signed base (one URL for a whole site)
         * @description A **signed base** fixes a recipe — a generator or a template (pinned to its latest version),
         *     its size, format, seed and every param but its declared **slots** — and signs it once with this
         *     key. The answer's `url` (`<PUBLIC_URL>/v1/bases/{baseId}/{signature}.{ext}`) is public: a page
         *     appends its slot values as query parameters (`?title=Hello%20world`) and uses it as `og:image`
         *     or `<img src>`, with no signing step per page. Each set of slot values is a recipe of its own,
         *     answered as a signed recipe URL is (`GET /v1/bases/{baseId}/{file}`).
         *
         *     A slot names a param of the generator (or a variable of the template) that `params` does not
         *     fix, with its rules: `maxLength` (1–500 characters), an optional `pattern` (matched against the
         *     whole value with the `u` flag; at most 200 characters, no backreference or lookaround, no
         *     repeated group, at most 2 unbounded repetitions and 8 quantifiers in all, so that no value can
         *     make its matching slow), an optional `enum` (required for a param that is not a string: its
         *     values as text, given to the param as its type) and `required` (default true; an optional slot
         *     left out renders the param's default). The recipe is validated as `POST /v1/url-signing-keys/{id}/sign`
         *     validates one, with a sample value in each slot and every value of each `enum`: 400
         *     `validation_failed` names the field (`body.slots.title`, `body.params.title`, `body.size.width`).
         */
        post: operations["createSigningBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/url-signing-keys/{id}/bases/{baseId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a signed base
         * @description Deletes the base: its URLs answer 401 `unauthorized` from then on, on every process (as an
         *     unknown signed URL does; base URLs read their base's row). Copies a CDN or browser already
         *     holds stay until their `max-age` ends. 404 when the key has no such base.
         */
        delete: operations["deleteSigningBase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/url-signing-keys/{id}/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a recipe URL
         * @description Builds a signed public URL of a recipe with this key: the recipe is validated exactly as
         *     `POST /v1/generate/{slug}` validates its body (the same 400s, naming the field). Signing needs
         *     no call to the service: see the algorithm in `docs/embedding.md` (or `render-service sign`).
         *     The URL is absolute, on the service's public URL (`PUBLIC_URL`, else `APP_ORIGIN`).
         */
        post: operations["signRenderUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage summary for a period
         * @description Totals, by UTC day and by generator; by hour or month with `granularity`, and per API key, signing key, generator or operation with `groupBy`. The period defaults to the last 30 days and may span at most 366 days.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's monthly budget and this month's alerts
         * @description The monthly budget (`monthlyCredits: null` when none is set), its alert thresholds (percent),
         *     the webhook URL its alerts go to, the credits charged this UTC calendar month by the ledger
         *     (`spentThisMonth`, whether or not a budget is set) and the thresholds crossed this month. A
         *     budget is an alert, not a limit: renders go on past 100 %. Any credential of the workspace;
         *     never cached.
         */
        get: operations["getBudget"];
        /**
         * Set or remove the monthly budget
         * @description Sets the workspace's budget: `monthlyCredits` per UTC calendar month and `alertThresholds`, in
         *     percent of it (default `[50, 80, 100]`). The first charge in a month that brings the month's
         *     spending to a threshold records it, once per workspace, month and threshold whichever process
         *     and however many concurrent charges see it, and sends one `budget.threshold_crossed` webhook
         *     (Standard Webhooks, signed with the workspace's webhook secret, see
         *     `GET /v1/workspace/webhook-secret`) to `webhookUrl` when one is set; its `data` is
         *     `{ workspaceId, month, threshold, budget, spent }`. The budget is checked when it is set as well,
         *     so a budget below this month's spending raises its crossed thresholds at once. `webhookUrl`
         *     follows the rule of a job's (HTTPS, a host in WEBHOOK_ALLOWED_HOSTS; 400
         *     `webhook_url_not_allowed`). `monthlyCredits: null` removes the budget (alerts already raised stay
         *     listed for the month). A budget never stops a render. Answers the budget as `GET` does.
         */
        put: operations["updateBudget"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The secret that signs outbound webhooks
         * @description The workspace's webhook signing secret, created on first read. Outbound webhooks follow the
         *     Standard Webhooks scheme and carry three headers:
         *
         *     - `webhook-id`: the message id, the same on every retry of one event; deduplicate on it. A job's
         *       event has the id `msg_<job id>` (a job ends once, so it has one event).
         *     - `webhook-timestamp`: the attempt's time in Unix seconds; refuse values more than 5 minutes away.
         *     - `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`,
         *       keyed by the base64-decoded bytes after the `whsec_` prefix. Compare in constant time over the
         *       unmodified body.
         *
         *     After `POST /v1/workspace/webhook-secret/rotate` only the new secret signs.
         */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the webhook signing secret
         * @description Replaces the workspace's webhook signing secret with a new one and answers it. Deliveries that
         *     start after this call are signed with the new secret only, so give it to your receiver at once.
         *     Rotate when a secret may have leaked. Each call makes a new secret (there is no Idempotency-Key).
         *     Any credential of the workspace; never cached (`Cache-Control: no-store`).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiKey: {
            /** Format: date-time */
            createdAt: string;
            /** @description Credits renders through this key cost this UTC month. */
            creditsSpentThisMonth: number;
            id: string;
            label: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            /** @description Credits per UTC calendar month; null for no limit. */
            monthlyCreditLimit: number | null;
            /** @description The first characters of the secret, e.g. `svc_live_3kQ9`, to recognise it. */
            prefix: string;
            revoked: boolean;
            /** Format: date-time */
            revokedAt: string | null;
            /** @description The scopes the key was created with; null for full access (every scope). */
            scopes: components["schemas"]["KeyScope"][] | null;
        };
        /** @description An uploaded image or font. `width` and `height` are an image's (after its EXIF orientation); `family` and `weights` a font's. */
        Asset: {
            /** @description Size of the uploaded file. */
            bytes: number;
            /**
             * @description The type the file was uploaded as. An image is stored as a PNG of 8-bit sRGB RGBA whatever it was uploaded as; a font as uploaded.
             * @enum {string}
             */
            contentType: "image/png" | "image/jpeg" | "image/webp" | "font/ttf" | "font/otf" | "font/woff2";
            /**
             * Format: date-time
             * @description When the asset was first uploaded.
             */
            createdAt: string;
            /** @description The font's typographic family name (name ID 16, else 1). */
            family?: string;
            height?: number;
            /** @description `ast_` and the first 32 hex digits of `sha256`. */
            id: string;
            /** @enum {string} */
            kind: "image" | "font";
            /** @description SHA-256 of the uploaded file (hex). */
            sha256: string;
            /** @description The weights the font draws: its OS/2 `usWeightClass` (one entry; a variable font's default instance). */
            weights?: number[];
            width?: number;
        };
        AuthConfig: {
            /** @description Whether the local gateway authenticates same-origin browser requests. */
            localGateway?: boolean;
            /** @enum {string} */
            mode: "local" | "hosted";
            providers: components["schemas"]["AuthProvider"][];
            /** @description The current session, if a valid cookie came along. */
            session: null | {
                /** Format: date-time */
                expiresAt: string;
                user: components["schemas"]["User"];
            };
        };
        AuthProvider: {
            /**
             * @description `dev` is the development sign-in of a trial on one machine (`npm run trial`): offered only when `APP_ORIGIN` is a loopback origin.
             * @enum {string}
             */
            id: "github" | "google" | "dev";
            name: string;
            /** @description POST `{"provider": id, "callbackURL": "<APP_ORIGIN>/…"}` here (with credentials); the answer's `url` is where to send the browser. */
            signInUrl: string;
        };
        Balance: {
            /** @description credits − reserved. */
            available: number;
            /** @description Purchased minus committed credits. */
            credits: number;
            /** @description Held by renders in progress. */
            reserved: number;
        };
        BatchItem: {
            format?: components["schemas"]["Format"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            slug: components["schemas"]["RecipeSlug"];
        };
        BatchRequest: {
            /**
             * @description Up to 50 `BatchItem`s. Each is validated on its own: an item that breaks the `BatchItem`
             *     schema is reported in its result (`ok: false`, `code: validation_failed`, `issues`
             *     naming `body.items.{i}.field`) and the other items still render.
             */
            items: (components["schemas"]["BatchItem"] | Record<string, never>)[];
        };
        BatchResponse: {
            count: number;
            results: components["schemas"]["BatchResultItem"][];
        };
        BatchResultItem: {
            bytes?: number;
            /**
             * @description As the X-Service-Cache header.
             * @enum {string}
             */
            cache?: "HIT" | "MISS";
            /** @description As the X-Service-Coalesced header: true when this item joined an identical render in flight; absent otherwise. */
            coalesced?: boolean;
            /** @description The problem code of a failed item; `not_ready` when the database went away before it rendered (nothing charged for it; retry it). */
            code?: components["schemas"]["ProblemCode"];
            contentType?: string;
            /** @description What went wrong with this item. */
            error?: string;
            /** @description The recipe hash. */
            hash?: string;
            index: number;
            /** @description For an item that broke a rule, each violation, naming its field (`body.items.2.seed`). */
            issues?: components["schemas"]["ProblemIssue"][];
            ok: boolean;
            /** @description The recipe URL: `/v1/render/{hash}?r={recipe}`. */
            url?: string;
        };
        Billing: {
            balance: components["schemas"]["Balance"];
            packs: components["schemas"]["CreditPack"][];
            purchases: components["schemas"]["Purchase"][];
        };
        Budget: {
            /** @description Percentages of monthlyCredits, ascending; empty without a budget. */
            alertThresholds: number[];
            /** @description The thresholds crossed this month, in order. */
            crossed: {
                /** @description The budget when it was crossed. */
                budget: number;
                /** Format: date-time */
                crossedAt: string;
                /** @description The month's spending when it was crossed. */
                spent: number;
                threshold: number;
            }[];
            /** @description The current UTC month. */
            month: string;
            /** @description Credits per UTC calendar month; null: no budget. */
            monthlyCredits: number | null;
            /** @description Credits charged this month, by the ledger. */
            spentThisMonth: number;
            /** @description Where `budget.threshold_crossed` is sent; null: alerts are only listed here. */
            webhookUrl: string | null;
        };
        BudgetUpdate: {
            /** @description Percentages of monthlyCredits at which to alert (default [50, 80, 100]); above 100 alerts on overspending. */
            alertThresholds?: number[];
            /** @description Credits per UTC calendar month; null removes the budget. */
            monthlyCredits: number | null;
            webhookUrl?: components["schemas"]["WebhookUrl"] | null;
        };
        Checkout: {
            id: string;
            /** Format: uri */
            url: string;
        };
        CheckoutCreate: {
            packId: string;
        };
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /** @description The full key. Shown once; store it now. Absent from an idempotent replay (`Idempotent-Replayed` true), because the secret is never stored. */
            secret?: string;
        };
        CreatedUrlSigningKey: components["schemas"]["UrlSigningKey"] & {
            /** @description The secret, `svc_sign_` + 32 random bytes in base64url. Shown once; store it now. Sign with SHA-256 of it. */
            secret: string;
        };
        CreditPack: {
            /** @description Price in the currency's minor unit. */
            amount: number;
            credits: number;
            currency: string;
            id: string;
            name: string;
        };
        /** @description A solid colour or a gradient, in its box or over the whole canvas. Send `color` or `gradient`. */
        FillLayer: {
            box?: components["schemas"]["TemplateBox"];
            color?: components["schemas"]["TemplateColor"];
            gradient?: components["schemas"]["TemplateGradient"];
            id: components["schemas"]["TemplateLayerId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "fill";
            opacity?: components["schemas"]["TemplateOpacity"];
        };
        /**
         * @default png
         * @enum {string}
         */
        Format: "png" | "webp" | "jpeg" | "gif" | "mp4" | "svg" | "css";
        FormatFacts: {
            /**
             * @description The media type of a file in this format: a render's `Content-Type`.
             * @example image/png
             */
            contentType: string;
            /**
             * @description The format takes a recipe `quality` (jpeg alone), and this is what a recipe without one renders at; null: it takes none.
             * @example 82
             */
            defaultQuality: number | null;
            /**
             * @description The file extension its files are saved with (a job's result, a download), without the dot.
             * @example png
             */
            extension: string;
            /**
             * @description How it is made: `still`, one raster frame (an animated generator's is its first frame); `motion`,
             *     the animation's frames; `text`, a document the generator writes (no pixels).
             * @enum {string}
             */
            kind: "still" | "motion" | "text";
        };
        Generator: {
            /** @description Animated generators accept gif and mp4. */
            animated: boolean;
            /** @description For animated generators, the default frame rate and frame count. */
            animation?: {
                fps?: number;
                frames?: number;
            } | null;
            /** @description Default params. */
            defaults?: {
                [key: string]: unknown;
            } | null;
            /** @description The size a recipe without `size` renders at (pixel ratio 1): 1920×1080 for every generator, as the specification says. */
            defaultSize: {
                height: number;
                width: number;
            };
            description?: string;
            formats: components["schemas"]["Format"][];
            name: string;
            /** @description JSON Schema (2020-12) of the params. `format: color` marks a `#rrggbb` colour; `x-multiline: true` marks a text param whose value may hold line breaks (`\n`: a form shows it as a text area). */
            paramSchema?: {
                [key: string]: unknown;
            } | null;
            slug: string;
            /** @description A suggestion only: the shape the generator is made for (identicon 256×256, social-card 1200×630, else 1920×1080), which the playground opens at. Send it as `size` to get it. */
            suggestedSize: {
                height: number;
                width: number;
            };
            /** @description Semver; part of every recipe hash. */
            version: string;
        };
        /** @description A generator, as `GET /v1/generators` lists it, with every version it has released. */
        GeneratorDetail: components["schemas"]["Generator"] & {
            /** @description Every released version, oldest first; the last is the current one (`version`). */
            versions: components["schemas"]["GeneratorVersion"][];
        };
        /** @description A generator's picture, in its box or (without one) over the whole canvas. An animated generator makes the template animated (gif, mp4); a template has at most one. */
        GeneratorLayer: {
            box?: components["schemas"]["TemplateBox"];
            id: components["schemas"]["TemplateLayerId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "generator";
            opacity?: components["schemas"]["TemplateOpacity"];
            /** @description Params over the generator's defaults; a value may be `"{{variable}}"`. */
            params?: {
                [key: string]: unknown;
            };
            /** @description A number, or `"{{variable}}"`; default: the render's seed. */
            seed?: number | string;
            /** @description A generator from `GET /v1/generators`. */
            slug: string;
            /** @description The generator version it draws with, one `GET /v1/generators/{slug}` lists and that is not `retired`. Without it, the current one: the template version stores it (a template version's picture never changes when a generator gets a new version). */
            version?: string;
        };
        /**
         * @description One released version of a generator. A recipe pins its version, and the version decides its
         *     bytes with the engine profile it was released with: every version that is not `retired`
         *     renders the same bytes for a recipe as it always has (docs/versioning.md).
         */
        GeneratorVersion: {
            /** @description The engine profile its files are encoded with (encoder settings, metadata layout): part of its bytes, and each file's embedded `engineVersion` where it carries one. */
            engineVersion: string;
            /** @description The formats this version renders. */
            formats: components["schemas"]["Format"][];
            /** @description Why a `retired` version retired before its window ended (it could not render the same bytes on every machine). */
            reason?: string;
            /**
             * Format: date
             * @description The day it was first served.
             */
            releasedAt: string;
            /**
             * @description `current`: what new recipes get. `deprecated`: superseded, and still rendered, with the same
             *     bytes, until `sunsetAt`. `retired`: recipe URLs pinning it answer 410 `recipe_outdated`
             *     naming the successor, except for files rendered before, which stay served.
             * @enum {string}
             */
            status: "current" | "deprecated" | "retired";
            /** @description The current version, for a superseded one. */
            successor?: string;
            /**
             * Format: date
             * @description The first day it renders no new files: at least 12 months after `supersededAt`.
             */
            sunsetAt?: string;
            /**
             * Format: date
             * @description The day a newer version replaced it.
             */
            supersededAt?: string;
            /** @description Semver, as recipes pin it. */
            version: string;
        };
        Health: {
            /**
             * @description How long a direct gif or mp4 render (`POST /v1/generate/{slug}`, `GET /v1/render/{recipeHash}`) may
             *     take before it answers 504 `animation_budget_exceeded` (`ANIMATION_BUDGET_MS`). A client that
             *     expects a longer render sends it as an export job (`POST /v1/jobs`), which has no such limit;
             *     `POST /v1/quote` says whether the service expects a recipe to fit (`fitsSyncBudget`).
             */
            animationBudgetMs: number;
            /** @description Version of the render engine (recipe handling and encoders). */
            engineVersion: string;
            /** @description Every output format (each value of `Format`, in its order) with what a client needs to handle its files. */
            formats: {
                [key: string]: components["schemas"]["FormatFacts"];
            };
            /** @description Number of generators. */
            generators: number;
            limits: components["schemas"]["Limits"];
            ok: boolean;
            /** @description Builds that shape the bytes: canvas/Skia, the image encoder and FFmpeg. */
            rendererVersion: string;
            /** @description The deployed source revision (git commit or REVISION). */
            revision: string;
        };
        /** @description An image asset in a box: `cover` (default) fills the box, cropped to it and centred; `contain` shows it whole, centred. */
        ImageLayer: {
            /** @description An image asset's id, or `"{{variable}}"` (the variable then takes an image asset's id). */
            asset: string;
            box: components["schemas"]["TemplateBox"];
            /** @enum {string} */
            fit?: "cover" | "contain";
            id: components["schemas"]["TemplateLayerId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "image";
            opacity?: components["schemas"]["TemplateOpacity"];
            /** @description Corner radius in template pixels (at half the shorter side: a circle). */
            radius?: number;
        };
        Job: {
            attempts: number;
            /** @description True once a cancel was accepted, at once; `status` turns `cancelled` when the work has stopped. */
            cancelled: boolean;
            contentType?: string;
            /** Format: date-time */
            createdAt: string;
            error?: string;
            /**
             * Format: date-time
             * @description When the result stops being available.
             */
            expiresAt?: string;
            /**
             * @description True once `status` is `completed`, `failed` or `cancelled`, which never change again; stop polling (or following the events) then.
             * @example false
             */
            finished: boolean;
            format?: components["schemas"]["Format"];
            id: string;
            /** @description As submitted (`{}` when none). */
            metadata?: components["schemas"]["JobMetadata"];
            progress: number;
            /** @description The canonical recipe of the job, encoded as in `X-Service-Recipe` (base64url of its JSON: slug, params, seed, size, format, and a jpeg's quality): a client can show its size or submit it again. */
            recipe?: string;
            recipeHash?: string;
            resultReady: boolean;
            /** @description Where the ready result downloads. With object storage that can presign (`BLOB_STORE=s3`), a short-lived absolute URL straight to the file that needs no credentials (made afresh on every read of the job, valid until `resultUrlExpiresAt`); otherwise the API path `/v1/jobs/{id}/result`, which needs the workspace's credentials. Webhook payloads always carry the API path (a delivery may be retried after a presigned URL expired); `GET /v1/jobs/{id}/result` works in every case. */
            resultUrl?: string;
            /**
             * Format: date-time
             * @description When a presigned `resultUrl` stops working (never after `expiresAt`); absent for the API path. Read the job again for a fresh one.
             */
            resultUrlExpiresAt?: string;
            slug: string;
            status: components["schemas"]["JobStatus"];
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description A recipe plus the generator, given as `slug` or its alias `generator`. */
        JobCreate: {
            format?: components["schemas"]["Format"];
            generator?: components["schemas"]["RecipeSlug"];
            metadata?: components["schemas"]["JobMetadata"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            slug?: components["schemas"]["RecipeSlug"];
            webhookUrl?: components["schemas"]["WebhookUrl"];
        } & ({
            slug: string;
        } | {
            generator: string;
        });
        /**
         * @description Your own data on the job — an order id, a user, a campaign — returned with the job and in every
         *     webhook of it, never part of the recipe or its hash. At most 20 keys of 1–40 characters, each
         *     value a string of at most 500 characters (400 `validation_failed` naming the field past that).
         * @example {
         *       "orderId": "ord_8812",
         *       "customer": "acme"
         *     }
         */
        JobMetadata: {
            [key: string]: string;
        };
        /**
         * @description queued → running → completed, failed or cancelled. A job in `completed`, `failed` or
         *     `cancelled` has finished: it never changes again (the job's `finished` is true), and its
         *     event stream ends. A retried job goes back to `queued`.
         * @enum {string}
         */
        JobStatus: "queued" | "running" | "completed" | "failed" | "cancelled";
        /** @description One JSON-RPC 2.0 message from an MCP client: a request (`id` and `method`), a notification (`method`, no `id`) or a response to the server (`id` with `result` or `error`). */
        JsonRpcMessage: {
            error?: {
                [key: string]: unknown;
            };
            id?: string | number;
            /** @constant */
            jsonrpc: "2.0";
            /** @example tools/call */
            method?: string;
            params?: {
                [key: string]: unknown;
            };
            result?: {
                [key: string]: unknown;
            };
        };
        /** @description The JSON-RPC 2.0 response to one request, with its `result` or its `error`. */
        JsonRpcResponse: {
            error?: {
                code: number;
                data?: unknown;
                message: string;
            };
            id?: string | number | null;
            /** @constant */
            jsonrpc: "2.0";
            result?: {
                [key: string]: unknown;
            };
        };
        KeyCreate: {
            label: string;
            /** @description Credits renders and export jobs through this key may cost per UTC calendar month (402 `signing_key_limit_reached` past it; a job counts at submission and gives its count back if it ends without being charged); null (the default) for no limit beyond the balance. */
            monthlyCreditLimit?: number | null;
            /**
             * @description What the key may call (each operation names its scope in its `security` requirement).
             *     Absent: every scope, as keys made before scopes have. A key that itself has scopes may
             *     create only keys within them, and must name them.
             */
            scopes?: components["schemas"]["KeyScope"][];
        };
        /**
         * @description A scope of an API key; which operations each allows is in the security requirements of the operations and `docs/accounts-keys-credits-billing.md#scoped-keys`.
         * @enum {string}
         */
        KeyScope: "render" | "jobs" | "presets" | "templates" | "assets" | "usage:read" | "account:read" | "billing" | "keys:manage" | "signing-keys:manage" | "webhooks:manage" | "mcp";
        /**
         * @description The limits a recipe is held to, so that a client can keep its controls within them instead of
         *     repeating them (the web app reads them here). A recipe outside them answers 400
         *     `validation_failed` (sizes, pixel ratio) or 413 `render_too_large` (pixels); none is ever resized.
         */
        Limits: {
            /**
             * @description The most frames per second a gif plays: above it the engine keeps every second frame (every
             *     third above twice it, …), so a 24 fps recipe gives a 12 fps gif of the same duration. mp4 keeps every frame.
             * @example 15
             */
            gifMaxFps: number;
            /**
             * @description Most output pixels of an animation (one frame's times its frames); more answers 413 `render_too_large`.
             * @example 625000000
             */
            maxAnimationPixels: number;
            /**
             * @description Most output pixels of one frame (width × pixelRatio × height × pixelRatio); more answers 413 `render_too_large`.
             * @example 40000000
             */
            maxFramePixels: number;
            /**
             * @description Largest `pixelRatio`.
             * @example 3
             */
            maxPixelRatio: number;
            /**
             * @description Largest `width` or `height` of a recipe's `size`, in logical pixels.
             * @example 4096
             */
            maxSide: number;
            /**
             * @description Smallest `pixelRatio`.
             * @example 0.5
             */
            minPixelRatio: number;
            /**
             * @description Smallest `width` or `height` of a recipe's `size`, in logical pixels.
             * @example 16
             */
            minSide: number;
        };
        Me: {
            /** @enum {string} */
            authMethod: "session" | "api_key" | "local";
            /** @description Null in local mode, which performs no credit checks. */
            balance: null | components["schemas"]["Balance"];
            user: null | components["schemas"]["User"];
            workspace: components["schemas"]["Workspace"];
        };
        /**
         * @description Merged over the generator's defaults; a `null` value restores that param's default.
         * @default {}
         */
        Params: {
            [key: string]: unknown;
        };
        /**
         * @description Output pixels per logical pixel.
         * @default 1
         */
        PixelRatio: number;
        Preset: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            recipe: components["schemas"]["PresetRecipe"];
            /**
             * @description The hash the preset renders to now (its `ETag` from `GET /v1/presets/{id}/render`). It
             *     includes the generator's version, so it changes when the generator does; a stored recipe
             *     that no longer validates keeps the hash it was saved with.
             */
            recipeHash: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PresetCreate: {
            name: string;
            recipe: components["schemas"]["PresetRecipe"];
        };
        PresetRecipe: {
            format?: components["schemas"]["Format"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            slug: components["schemas"]["RecipeSlug"];
        };
        PresetUpdate: {
            name?: string;
            recipe?: components["schemas"]["PresetRecipe"];
        };
        Pricing: {
            packs: components["schemas"]["CreditPack"][];
            rules: {
                credits: number;
                description: string;
            }[];
            /** @description What one credit buys. */
            unit: string;
        };
        /** @description An RFC 9457 problem document. */
        Problem: {
            code: components["schemas"]["ProblemCode"];
            detail?: string;
            /** @description The request id. */
            instance?: string;
            /** @description Each violation, naming the field. */
            issues?: components["schemas"]["ProblemIssue"][];
            status: number;
            title: string;
            /**
             * @description A URI reference identifying the problem type.
             * @example /v1/reference#problem-validation_failed
             */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description Stable machine-readable error codes, with their HTTP status:
         *
         *     | code | status | meaning |
         *     |---|---|---|
         *     | `validation_failed` | 400 | The request violates the contract; `issues` lists each field. |
         *     | `malformed_json` | 400 | The body is not valid JSON. |
         *     | `invalid_params` | 400 | Generator params violate the generator's `paramSchema` (a template's: its `variables`). |
         *     | `invalid_template` | 400 | The template breaks a rule its schema cannot say: duplicate layer ids, an unknown generator or its params, an undeclared `{{variable}}`, an unknown font family, an asset that is not the workspace's or not of the layer's kind; `issues` names each field. |
         *     | `unsupported_characters` | 400 | A text param has characters no font bundled with the service draws (e.g. Korean, private-use or rare scripts); `issues` names each param and grapheme (with its code points) and `characters` lists them. Text is never drawn from the machine's fonts nor as empty boxes. |
         *     | `unsupported_format` | 400 | The generator does not offer this format. |
         *     | `invalid_recipe` | 400 | The encoded recipe `r` cannot be decoded (not base64url JSON), or it decoded but breaks a rule or limit of a recipe; `detail` and `issues` say which. |
         *     | `recipe_hash_mismatch` | 400 | The recipe does not hash to the path's recipe hash. |
         *     | `webhook_url_not_allowed` | 400 | The webhook URL is not HTTPS or its host is not allowed. |
         *     | `invalid_signature` | 400 | The payment webhook signature is missing, wrong or stale, or both `Payment-Signature` and `Stripe-Signature` were sent. |
         *     | `sign_in_failed` | 400 | A sign-in request under `/v1/auth` was refused (unknown provider, bad state); `detail` carries the library's reason. |
         *     | `malformed_request` | 400 | The request is not well-formed HTTP (refused by the server's HTTP parser before any route, or HTTP/1.1 without `Host`). |
         *     | `unauthorized` | 401 | Missing, invalid or revoked credentials. |
         *     | `insufficient_credits` | 402 | The balance does not cover the cost. |
         *     | `signing_key_limit_reached` | 402 | A render or an export job would pass its key's `monthlyCreditLimit` this UTC month: a signed URL's signing key (the limit and the spending are in `GET /v1/url-signing-keys`, never in the answer to the URL), or the API key's own (its `detail` names the limit and the spending, also in `GET /v1/keys`). |
         *     | `origin_denied` | 403 | The Origin is not listed in `ALLOWED_ORIGINS`, or a cookie-authenticated request lacks a matching Origin (mutations) or same-origin evidence (renders: `Sec-Fetch-Site: same-origin` or a listed Origin). |
         *     | `forbidden` | 403 | The credentials may not do this. |
         *     | `insufficient_scope` | 403 | The API key lacks the scope this operation names in its `security` requirement; `requiredScope` names it (so does `detail`). |
         *     | `not_found` | 404 | No such resource in this workspace. |
         *     | `route_not_found` | 404 | No such route. |
         *     | `generator_not_found` | 404 | No generator has this slug. |
         *     | `template_not_found` | 404 | The workspace has no such template (or version): another workspace's, a deleted one and a missing one answer alike. |
         *     | `method_not_allowed` | 405 | The route exists but not with this method (`Allow` lists those it has). No operation declares it: it answers a method that has no operation on the path. |
         *     | `request_timeout` | 408 | The headers or the body did not arrive within their deadline; the connection is closed. |
         *     | `job_not_cancellable` | 409 | The job has already ended. |
         *     | `job_not_ready` | 409 | The job has no result yet (queued or running); try again later. |
         *     | `job_has_no_result` | 409 | The job failed or was cancelled; it has no result and never will (`detail` says which). |
         *     | `idempotency_in_progress` | 409 | A request with this Idempotency-Key is still running. |
         *     | `conflict` | 409 | The resource changed or already exists. |
         *     | `key_limit_reached` | 409 | The workspace already holds 100 active keys; revoke one first. |
         *     | `result_expired` | 410 | The result passed its retention period. |
         *     | `signed_url_expired` | 410 | The signed URL is past its `exp`; permanent: sign a new URL. |
         *     | `recipe_outdated` | 410 | The recipe pins a generator version the service no longer runs. |
         *     | `payload_too_large` | 413 | The request body is over the limit. |
         *     | `render_too_large` | 413 | Output pixels × frames exceed the engine budget. |
         *     | `unsupported_media_type` | 415 | The body is not `application/json`. |
         *     | `idempotency_key_reused` | 422 | The Idempotency-Key was used with a different body. |
         *     | `rate_limited` | 429 | Too many requests; see `Retry-After`. |
         *     | `request_header_fields_too_large` | 431 | The request line and headers exceed 32 KiB; the connection is closed. |
         *     | `too_many_streams` | 429 | The workspace already holds `EVENT_STREAMS_PER_WORKSPACE` open job event streams (default 20); close one. |
         *     | `client_closed_request` | 499 | The client disconnected; the work was stopped (logged only: no client receives it, so no operation declares it). |
         *     | `internal_error` | 500 | An unexpected error. |
         *     | `not_implemented` | 501 | This operation is not available yet. |
         *     | `upstream_error` | 502 | An encoder or the payment provider failed. |
         *     | `overloaded` | 503 | The render queue is full; see `Retry-After`. |
         *     | `not_ready` | 503 | A dependency (database, object storage, FFmpeg) is unavailable, or the process is still starting; see `Retry-After`. |
         *     | `animation_budget_exceeded` | 504 | The animated render is over the synchronous budget; use `POST /v1/jobs`. |
         *     | `render_timeout` | 504 | The render exceeded its time limit. |
         *     | `invalid_image` | 400 | An image asset cannot be decoded: truncated, corrupt, or a size of 0 (`issues` names `body`). |
         *     | `animated_image` | 400 | An image asset has more than one frame (animated WebP, APNG); assets are still images. |
         *     | `invalid_font` | 400 | A font asset fails validation (it cannot be parsed, lacks a required table, has no glyphs or outlines, or its check passed its time or memory limit); `detail` says which. |
         *     | `asset_not_found` | 404 | No such asset in this workspace (another workspace's id answers the same). |
         *     | `asset_limit_reached` | 409 | The workspace already holds `ASSETS_PER_WORKSPACE` assets (default 1,000); delete one first. |
         *     | `asset_too_large` | 413 | The asset body is over its kind's limit (`ASSET_IMAGE_MAX_BYTES`, default 10 MiB; `ASSET_FONT_MAX_BYTES`, default 20 MiB); `limit` is the limit in bytes. Refused while the body is read. |
         *     | `image_too_large` | 413 | The image's header declares more than `ASSET_MAX_PIXELS` pixels (default 40,000,000); refused before any decode; `limit` is the limit. |
         *     | `unsupported_asset_type` | 415 | The asset's `Content-Type` is not one of `image/png`, `image/jpeg`, `image/webp`, `font/ttf`, `font/otf`, `font/woff2` (SVG, GIF, WOFF and collections are not accepted). |
         *     | `asset_type_mismatch` | 415 | The asset's bytes are not of its declared `Content-Type` (their magic number says another type, or none). |
         * @enum {string}
         */
        ProblemCode: "validation_failed" | "malformed_json" | "invalid_params" | "invalid_template" | "unsupported_characters" | "unsupported_format" | "invalid_recipe" | "recipe_hash_mismatch" | "webhook_url_not_allowed" | "invalid_signature" | "sign_in_failed" | "malformed_request" | "unauthorized" | "insufficient_credits" | "signing_key_limit_reached" | "origin_denied" | "forbidden" | "insufficient_scope" | "not_found" | "route_not_found" | "generator_not_found" | "template_not_found" | "method_not_allowed" | "request_timeout" | "job_not_cancellable" | "job_not_ready" | "job_has_no_result" | "idempotency_in_progress" | "conflict" | "key_limit_reached" | "result_expired" | "signed_url_expired" | "recipe_outdated" | "payload_too_large" | "render_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limited" | "request_header_fields_too_large" | "too_many_streams" | "client_closed_request" | "internal_error" | "not_implemented" | "upstream_error" | "overloaded" | "not_ready" | "animation_budget_exceeded" | "render_timeout" | "invalid_image" | "animated_image" | "invalid_font" | "asset_not_found" | "asset_limit_reached" | "asset_too_large" | "image_too_large" | "unsupported_asset_type" | "asset_type_mismatch";
        ProblemIssue: {
            keyword?: string;
            message: string;
            /** @description JSON-pointer-like path of the field, e.g. `body.size.width` or `query.w`. */
            path: string;
        };
        Purchase: {
            amount: number;
            /** Format: date-time */
            createdAt: string;
            credits: number;
            currency: string;
            id: string;
            packId: string;
            /** @enum {string} */
            status: "pending" | "completed" | "refunded";
        };
        /**
         * @description JPEG's quality, 1–100; a jpeg recipe without one renders at 82 (the knee of size against error
         *     over the catalogue, docs/benchmarks.md) and its canonical recipe says so. JPEG's alone: with
         *     any other format (png when none is named) 400 `validation_failed` naming the field.
         * @example 82
         */
        Quality: number;
        Quote: {
            /** @description The file is in the render cache now, so the call would be a hit, free (a batch is when every item is). */
            cached: boolean;
            /**
             * @description What the call would charge if sent now (`X-Service-Credits` of the render; the job's hold; the
             *     sum over a batch's items): 0 for a file already in the render cache, and 0 in local mode.
             */
            credits: number;
            /** @description An estimate of the render time in milliseconds (0 for a cached file), the slowest generator's on a 2-core machine; a batch's items summed (up to `RENDER_WORKERS` render at once). */
            estimatedMs: number;
            /** @description Whether the estimate fits the time a synchronous render may take (`animationBudgetMs` of `GET /v1/health` for a gif or mp4, else `RENDER_TIMEOUT_MS`); false: send it as a job. A cached file always fits. A batch fits when every item does. */
            fitsSyncBudget: boolean;
            /** @description The frames of an animation (gif or mp4); absent for a still. */
            frames?: number;
            /** @description The recipe hash of the render or job (the `X-Service-Recipe-Hash` it would answer). */
            hash?: string;
            /** @description A batch's items in request order, each priced on its own or refused as the batch would refuse it. */
            items?: components["schemas"]["QuoteItem"][];
            /** @description The output pixel-frames pricing counts (width × pixelRatio × height × pixelRatio × frames); a batch's distinct items summed. svg and css cost one credit whatever their size. */
            pixels: number;
        };
        /** @description One batch item's quote (its fields as in `Quote`), or, with `ok` false, why the batch would not render it (as in `BatchResultItem`). */
        QuoteItem: {
            cached?: boolean;
            code?: components["schemas"]["ProblemCode"];
            credits?: number;
            /** @description The earlier item this one is identical to: the batch renders them once, so this one costs nothing (credits and estimatedMs 0). */
            duplicateOf?: number;
            /** @description Why this item would not render. */
            error?: string;
            estimatedMs?: number;
            fitsSyncBudget?: boolean;
            frames?: number;
            hash?: string;
            index: number;
            /** @description For an item that broke a rule, each violation, naming its field (`body.batch.items.2.seed`). */
            issues?: components["schemas"]["ProblemIssue"][];
            ok: boolean;
            pixels?: number;
        };
        /** @description The call to price: exactly one of `render`, `batch` or `job`. */
        QuoteRequest: {
            /** @description A `POST /v1/batch` body. */
            batch?: components["schemas"]["BatchRequest"];
            /** @description A `POST /v1/jobs` body. */
            job?: components["schemas"]["JobCreate"];
            /** @description A synchronous render: the `POST /v1/generate/{slug}` body with its `slug` (a generator or a template `tpl_…`). */
            render?: components["schemas"]["BatchItem"];
        } & ({
            render: {
                [key: string]: unknown;
            };
        } | {
            batch: {
                [key: string]: unknown;
            };
        } | {
            job: {
                [key: string]: unknown;
            };
        });
        Readiness: {
            /** @description The blob store (`BLOB_STORE`: files, the database or an S3 bucket) answers a read. */
            blobStore: boolean;
            database: boolean;
            engineVersion: string;
            ffmpeg: boolean;
            ok: boolean;
            rendererVersion: string;
        };
        /** @description A recipe. Defaults: params {}, seed 0, size 1920×1080 at pixelRatio 1, format png (and a jpeg's quality 82). */
        RecipeInput: {
            format?: components["schemas"]["Format"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            webhookUrl?: components["schemas"]["WebhookUrl"];
        };
        /**
         * @description A generator slug from `GET /v1/generators`, or a template of the workspace — `tpl_…` (its latest version) or `tpl_…@2` (version 2).
         * @example mesh-gradient
         */
        RecipeSlug: string;
        /**
         * @description 0 derives the seed from the canonical params (the first 4 bytes of their SHA-256, big-endian; 1 if that is 0).
         * @default 0
         */
        Seed: number;
        /** @description A rectangle (with corner `radius`) or an ellipse, filled, stroked or both. */
        ShapeLayer: {
            box: components["schemas"]["TemplateBox"];
            fill?: components["schemas"]["TemplateColor"];
            id: components["schemas"]["TemplateLayerId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "shape";
            opacity?: components["schemas"]["TemplateOpacity"];
            radius?: number;
            /** @enum {string} */
            shape: "rectangle" | "ellipse";
            stroke?: {
                color: components["schemas"]["TemplateColor"];
                width: number;
            };
        };
        /**
         * @description The `Cache-Control` max-age of signed responses (how long a CDN or browser may keep them; revocation cannot reach those copies).
         * @default 31536000
         */
        SignedMaxAgeSeconds: number;
        SignedRenderUrl: {
            /**
             * Format: date-time
             * @description When it expires (its `exp`), or null.
             */
            expiresAt: string | null;
            recipeHash: string;
            /**
             * Format: uri
             * @description The absolute signed URL.
             */
            url: string;
        };
        /**
         * @description The path form with the file extension (`/v1/render/<hash>.png?…`).
         * @default false
         */
        SignedUrlExtension: boolean;
        SigningBase: {
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When its URLs expire, or null.
             */
            expiresAt: string | null;
            format: components["schemas"]["Format"];
            /** @description The base's id (`sb_…`). */
            id: string;
            /** @description The URL signing key that signed it. */
            keyId: string;
            params: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            slots: {
                [key: string]: components["schemas"]["SlotRules"];
            };
            /** @description What the base draws, pinned to the version it was created with: a generator's slug and version (`social-card@3.0.0`: the base keeps drawing it after the generator gets a new version, as a recipe URL pinning it would; docs/versioning.md), or a template's id and version (`tpl_…@3`). */
            slug: string;
            /**
             * Format: uri
             * @description The absolute base URL; append the slot values as query parameters.
             */
            url: string;
        };
        /** @description A recipe as `POST /v1/url-signing-keys/{id}/sign` takes it, but for its slots: the params the URL fills in. Send `expiresAt` or `expiresInSeconds`, not both; neither: the base does not expire. */
        SigningBaseCreate: {
            /**
             * Format: date-time
             * @description When the base's URLs expire (RFC 3339); whole seconds count.
             */
            expiresAt?: string;
            /** @description Seconds from now until the base's URLs expire. */
            expiresInSeconds?: number;
            format?: components["schemas"]["Format"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            /** @description The params left open, by name, each with its rules. */
            slots: {
                [key: string]: components["schemas"]["SlotRules"];
            };
            slug: components["schemas"]["RecipeSlug"];
        };
        /** @description The recipe as `POST /v1/generate/{slug}` takes it, with its slug, and the URL's form. Send `expiresAt` or `expiresInSeconds`, not both; neither: the URL does not expire. */
        SignRenderUrlRequest: {
            /**
             * Format: date-time
             * @description When the URL expires (RFC 3339); whole seconds count.
             */
            expiresAt?: string;
            /** @description Seconds from now until the URL expires. */
            expiresInSeconds?: number;
            extension?: components["schemas"]["SignedUrlExtension"];
            format?: components["schemas"]["Format"];
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            size?: components["schemas"]["Size"];
            slug: components["schemas"]["RecipeSlug"];
        };
        Size: {
            /**
             * @description Logical height in pixels.
             * @example 630
             */
            height: number;
            pixelRatio?: components["schemas"]["PixelRatio"];
            /**
             * @description Logical width in pixels.
             * @example 1200
             */
            width: number;
        };
        SlotRules: {
            /** @description The only values taken; required for a param that is not a string (its values as text). */
            enum?: string[];
            /** @description The longest value, in characters (code points). */
            maxLength: number;
            /** @description A regular expression the whole value must match (`u` flag), of the safe kind the operation describes. */
            pattern?: string;
            /** @description true when not sent. false: a URL may leave the slot out, and the param's default is rendered. */
            required?: boolean;
        };
        Template: {
            /** @description The colour under every layer, opaque (`#rgb` or `#rrggbb`); default white. */
            background?: components["schemas"]["TemplateColor"];
            /** Format: date-time */
            createdAt: string;
            /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
            id: string;
            layers: components["schemas"]["TemplateLayer"][];
            name: string;
            size: components["schemas"]["TemplateSize"];
            /** Format: date-time */
            updatedAt: string;
            variables: components["schemas"]["TemplateVariables"];
            /** @description The latest version: the one these fields describe. */
            version: number;
            /** @description Every version, oldest first. */
            versions: {
                /** Format: date-time */
                createdAt: string;
                name: string;
                version: number;
            }[];
        };
        /** @description A rectangle in the template's own pixel space (its `size`); scaled with the whole composition. */
        TemplateBox: {
            height: number;
            width: number;
            x: number;
            y: number;
        };
        /**
         * @description `#rgb`, `#rrggbb` or `#rrggbbaa`.
         * @example #0f172a
         */
        TemplateColor: string;
        TemplateCreate: {
            /** @description The colour under every layer, opaque (`#rgb` or `#rrggbb`); default white. */
            background?: components["schemas"]["TemplateColor"];
            layers: components["schemas"]["TemplateLayer"][];
            name: string;
            size: components["schemas"]["TemplateSize"];
            variables?: components["schemas"]["TemplateVariables"];
        };
        /** @description linear: `angle` in degrees as CSS says it (90 runs left to right, 180 top to bottom); radial: centre `cx`, `cy` (0–1 of the box, default 0.5) reaching the farthest corner. */
        TemplateGradient: {
            angle?: number;
            cx?: number;
            cy?: number;
            stops: {
                color: components["schemas"]["TemplateColor"];
                offset: number;
            }[];
            /** @enum {string} */
            type: "linear" | "radial";
        };
        /** @description One layer; `kind` says which. */
        TemplateLayer: components["schemas"]["GeneratorLayer"] | components["schemas"]["FillLayer"] | components["schemas"]["ImageLayer"] | components["schemas"]["TextLayer"] | components["schemas"]["ShapeLayer"];
        /** @description Unique within the template. */
        TemplateLayerId: string;
        /** @description 0–1, default 1. */
        TemplateOpacity: number;
        TemplatePreviewRequest: {
            /**
             * @description Default `png`, as for a render.
             * @enum {string}
             */
            format?: "png" | "webp" | "jpeg";
            params?: components["schemas"]["Params"];
            quality?: components["schemas"]["Quality"];
            seed?: components["schemas"]["Seed"];
            /** @description The output size; default the template's size at pixelRatio 1. At most 2,073,600 output pixels. */
            size?: components["schemas"]["Size"];
            template: components["schemas"]["TemplateCreate"];
        };
        /** @description The template's own size in pixels; a render without `size` renders at it, and another size must keep its aspect ratio. */
        TemplateSize: {
            height: number;
            width: number;
        };
        TemplateStarter: {
            description: string;
            /**
             * @description The file's name in `starters/`, without `.json`.
             * @example blog-og-image
             */
            id: string;
            /** @example Blog og:image */
            name: string;
            template: components["schemas"]["TemplateCreate"];
        };
        TemplateStarterList: components["schemas"]["TemplateStarter"][];
        TemplateSummary: {
            /** Format: date-time */
            createdAt: string;
            /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
            id: string;
            name: string;
            size: components["schemas"]["TemplateSize"];
            /** Format: date-time */
            updatedAt: string;
            /** @description The latest version. */
            version: number;
        };
        /** @description A JSON Schema (draft 2020-12) of an object — the render's `params`. Defaults fill what a render leaves out. Default: `{ "type": "object", "properties": {} }`. */
        TemplateVariables: {
            [key: string]: unknown;
        };
        TemplateVersion: {
            /** @description The colour under every layer, opaque (`#rgb` or `#rrggbb`); default white. */
            background?: components["schemas"]["TemplateColor"];
            /** Format: date-time */
            createdAt: string;
            layers: components["schemas"]["TemplateLayer"][];
            name: string;
            size: components["schemas"]["TemplateSize"];
            templateId: string;
            variables: components["schemas"]["TemplateVariables"];
            version: number;
        };
        /** @description Text in a box, with `{{variable}}` interpolation, set at the largest size from `fit.max` down to `fit.min` that fits the box in `fit.maxLines` lines; then `ellipsis` cuts the last line, `error` refuses the render (400 naming the variable). */
        TextLayer: {
            /** @enum {string} */
            align?: "left" | "center" | "right";
            box: components["schemas"]["TemplateBox"];
            color?: components["schemas"]["TemplateColor"];
            fit?: {
                max: number;
                maxLines?: number;
                min?: number;
                /** @enum {string} */
                overflow?: "ellipsis" | "error";
            };
            /** @description A bundled family (default Space Grotesk) or an uploaded font asset; graphemes a font lacks come from the bundled fonts. */
            font?: {
                asset?: string;
                /** @example Space Grotesk */
                family?: string;
                weight?: number;
            };
            id: components["schemas"]["TemplateLayerId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "text";
            lineHeight?: number;
            opacity?: components["schemas"]["TemplateOpacity"];
            text: string;
            /** @enum {string} */
            valign?: "top" | "middle" | "bottom";
        };
        UrlSigningKey: {
            /** Format: date-time */
            createdAt: string;
            /** @description Credits its signed renders cost this UTC calendar month (local mode counts what they would cost). */
            creditsSpentThisMonth: number;
            /** @description The `kid` of its signed URLs. */
            id: string;
            label: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            maxAgeSeconds: number;
            monthlyCreditLimit: number | null;
            /** @description The first characters of the secret, e.g. `svc_sign_q3H0xv`, to recognise it. */
            prefix: string;
            revoked: boolean;
            /** Format: date-time */
            revokedAt: string | null;
        };
        UrlSigningKeyCreate: {
            label: string;
            maxAgeSeconds?: components["schemas"]["SignedMaxAgeSeconds"];
            /** @description Credits renders through this key may cost per UTC calendar month; null (the default) for no limit beyond the balance. */
            monthlyCreditLimit?: number | null;
        };
        UsageSummary: {
            byDay: (components["schemas"]["UsageTotals"] & {
                /** Format: date */
                date: string;
            })[];
            byGenerator: (components["schemas"]["UsageTotals"] & {
                slug: string;
            })[];
            /** @description With `granularity=hour`, the totals per UTC hour (its start); hours without renders are left out. */
            byHour?: (components["schemas"]["UsageTotals"] & {
                /** Format: date-time */
                period: string;
            })[];
            /** @description With `granularity=month`, the totals per UTC month (YYYY-MM) within the period. */
            byMonth?: (components["schemas"]["UsageTotals"] & {
                period: string;
            })[];
            /** Format: date */
            from: string;
            /**
             * @description The grouping asked for.
             * @enum {string}
             */
            groupBy?: "apiKey" | "signingKey" | "generator" | "operation";
            /**
             * @description With `groupBy`, the totals per group over the period, largest charge first. `key` is the API
             *     key's id, the URL signing key's id, the generator's slug (or template id) or the operationId;
             *     `null` collects the renders outside every group (for `apiKey`: sessions, the local gateway and
             *     signed URLs; for `signingKey`: everything not through a signed URL). The groups add up to
             *     `totals`.
             */
            groups?: (components["schemas"]["UsageTotals"] & {
                key: string | null;
            })[];
            /** Format: date */
            to: string;
            totals: components["schemas"]["UsageTotals"];
        };
        UsageTotals: {
            bytes: number;
            /** @description Renders served without rendering: cache hits and coalesced requests. */
            cacheHits: number;
            credits: number;
            renders: number;
        };
        User: {
            email: string | null;
            id: string;
            image?: string | null;
            name: string | null;
        };
        WebhookSecret: {
            /** Format: date-time */
            createdAt: string;
            /** @description `whsec_` followed by base64; sign per Standard Webhooks. */
            secret: string;
        };
        /**
         * Format: uri
         * @description HTTPS URL on a host in WEBHOOK_ALLOWED_HOSTS (an exact name, or any subdomain of a `*.example.com`
         *     entry), notified when a job completes, fails or is cancelled; anything else is refused with 400
         *     `webhook_url_not_allowed`. A synchronous render accepts the field but delivers nothing.
         *
         *     Delivery is a `POST` with `Content-Type: application/json` and the body
         *     `{"type": "job.completed" | "job.failed" | "job.cancelled", "timestamp": "<ISO 8601>", "data": <the job>}`,
         *     signed per Standard Webhooks (see `GET /v1/workspace/webhook-secret`). The host must resolve to
         *     public addresses only (no loopback, private, link-local, shared, unique-local, multicast or other
         *     special ranges) and the connection goes to the address that was checked. Each attempt has a 5 s
         *     total deadline; only a 2xx answer counts; redirects are not followed. A failed attempt is retried
         *     after 2 s and 10 s with the same `webhook-id`.
         * @example https://hooks.example.com/render-service
         */
        WebhookUrl: string;
        Workspace: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /**
             * @description `local`: local mode's workspace; `personal`: a signed-in user's; `team`: made by an operator with `render-service admin workspace create`, used through API keys.
             * @enum {string}
             */
            kind: "local" | "personal" | "team";
            name: string;
        };
    };
    responses: {
        /** @description An upstream (encoder or payment provider) failed. */
        BadGateway: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request is malformed or violates a limit; `issues` names each field. Any route answers
         *     `malformed_request` (broken percent-encoding, conflicting `Content-Length`) and refuses a
         *     body it cannot parse, also one sent to a route that takes none. The operations that take a
         *     recipe (generate, render a recipe URL, batch, jobs, quotes, presets and their renders) answer
         *     `unsupported_characters` when a text param (social-card's `title`, `subtitle`, `label`) has a
         *     character no bundled font draws, naming each one, instead of drawing a box or a machine's font.
         */
        BadRequest: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The resource is in a state that does not allow this. */
        Conflict: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                /** @description With `idempotency_in_progress`, seconds after which to send the request again. */
                "Retry-After"?: number;
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The origin is not allowed, or a cookie-authenticated request failed an origin check (`origin_denied`); or the API key lacks the scope the operation names (`insufficient_scope`, with `requiredScope`). */
        Forbidden: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The render exceeded its time budget; long work belongs in `POST /v1/jobs`. */
        GatewayTimeout: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The resource existed but was removed after its retention period. */
        Gone: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An unexpected error. No internals are disclosed. */
        InternalError: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource in this workspace. */
        NotFound: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description `not_implemented`: billing is not configured on this server (no payment provider settings, as in local mode). */
        NotImplemented: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The client's copy is current: an entity-tag in `If-None-Match` equals the current ETag (weak
         *     comparison, RFC 9110 §13.1.2), or it is `*` (any current representation). No body; the
         *     headers a cache needs to update its copy (RFC 9110 §15.4.5). A request's
         *     `Cache-Control: no-cache` does not turn this off: it addresses caches, not the origin.
         */
        NotModified: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                /** @description As the 200 carries it: a render's (public for a signed URL), `no-store` or `public, max-age=N` for JSON and HTML. */
                "Cache-Control"?: string;
                /** @description `cross-origin` on a signed URL's 304, else `same-origin`. */
                "Cross-Origin-Resource-Policy"?: "same-origin" | "cross-origin";
                /** @description The current ETag, as the 200 carries it: a render's quoted recipe hash, else the quoted SHA-256 of the body. */
                ETag: string;
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description On a render's 304: the engine version, as its 200 says. */
                "X-Service-Engine"?: string;
                /** @description On a render's 304: the canonical recipe, as its 200 says. */
                "X-Service-Recipe"?: string;
                /** @description On a render's 304: the recipe hash, as its 200 says. */
                "X-Service-Recipe-Hash"?: string;
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description The request body is larger than `BODY_LIMIT_BYTES` or nested too deep (any route refuses such a
         *     body, also one sent to a route that takes none: `payload_too_large`), or the render is larger
         *     than the engine allows (`render_too_large`).
         */
        PayloadTooLarge: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Not enough credits for this render (`insufficient_credits`), or a signed URL's signing key or the calling API key reached its monthly credit limit (`signing_key_limit_reached`; to an API key's caller its `detail` gives the limit and this month's spending). To an authenticated caller the `insufficient_credits` problem carries `cost` (credits this render needs) and `balance` (credits, reserved, available), and its `detail` says how to get credits here (the checkout when billing is configured, else the service's operator). A signed URL's caller is anonymous and learns nothing about the workspace; either problem says in general terms that the image is unavailable and why, with no `cost`, `balance`, limit or spending. */
        PaymentRequired: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                "X-Service-Credits-Remaining": components["headers"]["CreditsRemainingHeader"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/v1/reference#problem-insufficient_credits",
                 *       "status": 402,
                 *       "code": "insufficient_credits",
                 *       "title": "Not enough credits",
                 *       "detail": "This costs 3 credits and 1 is available. Buy credits with POST /v1/billing/checkout.",
                 *       "instance": "0d6f4b9a-8c21-4e3f-a5b7-2c9e1d4f6a83",
                 *       "cost": 3,
                 *       "balance": {
                 *         "credits": 5,
                 *         "reserved": 4,
                 *         "available": 1
                 *       }
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"] & {
                    balance?: components["schemas"]["Balance"];
                    cost?: number;
                };
            };
        };
        /** @description An error. */
        Problem: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The rendered file. */
        RenderedFile: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                /** @description `private, max-age=31536000, immutable`: a recipe never changes its bytes. A signed URL: `public, max-age=N, immutable`, N being the signing key's `maxAgeSeconds`, or the seconds left until `exp` when fewer. */
                "Cache-Control"?: string;
                /** @description `same-origin`; `cross-origin` for a signed URL, so other sites may embed it. */
                "Cross-Origin-Resource-Policy"?: "same-origin" | "cross-origin";
                /** @description The quoted recipe hash: send it as `If-None-Match` to get 304 instead of the bytes again. */
                ETag: string;
                "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                /** @description `Authorization, Cookie`, with `Origin` in front when the request carried an allowed one; `Origin` on a signed URL (no credential changes it, but an unlisted `Origin` is refused). */
                Vary?: string;
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                "X-Service-Cache": components["headers"]["CacheHeader"];
                "X-Service-Coalesced": components["headers"]["CoalescedHeader"];
                "X-Service-Credits": components["headers"]["CreditsHeader"];
                "X-Service-Credits-Remaining": components["headers"]["CreditsRemainingHeader"];
                "X-Service-Engine": components["headers"]["EngineHeader"];
                "X-Service-Recipe": components["headers"]["RecipeHeader"];
                "X-Service-Recipe-Hash": components["headers"]["RecipeHashHeader"];
                [name: string]: unknown;
            };
            content: {
                "image/gif": string;
                "image/jpeg": string;
                "image/png": string;
                "image/svg+xml": string;
                "image/webp": string;
                "text/css": string;
                "video/mp4": string;
            };
        };
        /** @description The request line and headers together exceed 32 KiB (room for `r` at its maximum length plus 16 KiB of other headers). The connection is closed. */
        RequestHeaderFieldsTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["NoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The body did not arrive within `REQUEST_BODY_TIMEOUT_MS` (default 30 s) of the route accepting
         *     the request, or the headers within `REQUEST_HEADERS_TIMEOUT_MS` (default 10 s). The connection is closed.
         */
        RequestTimeout: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The render queue is full, a dependency (database, object storage, FFmpeg) is down, or the process is still starting; see `Retry-After`. */
        ServiceUnavailable: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                "Retry-After"?: number;
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A workspace or API-key rate limit is used up (`detail` says which); see `Retry-After`. */
        TooManyRequests: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                /** @description Seconds until the exhausted window resets. */
                "Retry-After": number;
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description Missing, invalid or revoked credentials. Such requests are counted per client address
         *     (`RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE`, default 60); past that they get 429 `rate_limited`.
         */
        Unauthorized: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "WWW-Authenticate"?: string;
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description `idempotency_key_reused`: this `Idempotency-Key` was already used with a different request
         *     (method, path or body) within its retention; send a new key for a new request.
         */
        UnprocessableContent: {
            headers: {
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The body is not `application/json`, or it has a `Content-Encoding` other than `identity` (bodies are
         *     accepted uncompressed only; the response then carries `Accept-Encoding: identity`). Any route
         *     refuses such a body, also one sent to a route that takes none.
         */
        UnsupportedMediaType: {
            headers: {
                /** @description `identity` when the refused body was compressed. */
                "Accept-Encoding"?: string;
                "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                "Cache-Control": components["headers"]["NoStore"];
                "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                Vary: components["headers"]["Vary"];
                "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description `ast_` and the first 32 hex digits of the SHA-256 of the uploaded file; any other id answers 404 `asset_not_found`.
         * @example ast_0d1f5e9a3b7c4e2f8a6b1c0d9e8f7a6b
         */
        AssetId: string;
        /**
         * @description Opaque cursor from a `Link` header.
         * @example MTc5NTQ2NzEzMjMxMjpqb2JfbUhLX01vazR3Vkc3V0lqYQ
         */
        Cursor: string;
        /**
         * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
         *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
         *     does no work and charges nothing. The same key with a different body → 422
         *     `idempotency_key_reused`; a replay while the first request still runs → 409
         *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
         *     per workspace; use a UUID.
         * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
         */
        IdempotencyKey: string;
        /**
         * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
         * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
         */
        IfNoneMatch: string;
        /** @example job_NN8ndqmfzzkWSR0- */
        JobId: string;
        /**
         * @description Page size.
         * @example 50
         */
        Limit: number;
        /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
        PresetId: string;
        /** @description A generator slug from `GET /v1/generators`, or one of the workspace's templates — `tpl_…` (its latest version) or `tpl_…@2` (version 2). */
        RecipeSlug: components["schemas"]["RecipeSlug"];
        /** @example sb_Vq3k9XzA1bC2dE3f */
        SigningBaseId: string;
        /** @description A generator slug from `GET /v1/generators`. */
        Slug: string;
        /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
        TemplateId: string;
        /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
        UrlSigningKeyId: string;
    };
    requestBodies: never;
    headers: {
        /** @description CORS: `true` beside an allowed origin's `Access-Control-Allow-Origin` (its scripts may send credentials and read the answer). Never on a public answer (`*`): a public answer needs no credentials. */
        AccessControlAllowCredentials: "true";
        /** @description CORS. `*` on every public answer (a signed URL's, and the public operations' whose 200 is `PublicCache`), with or without an `Origin`, and on their 403 `origin_denied` (so the refused page can read why). Otherwise, on a request whose `Origin` is allowed (listed in `ALLOWED_ORIGINS`, or in local mode the service's own loopback origin): that origin; absent on every other request. */
        AccessControlAllowOrigin: string;
        /** @description CORS: beside `Access-Control-Allow-Origin`, the response headers a script may read: every header this document declares that is not CORS-safelisted. */
        AccessControlExposeHeaders: string;
        /**
         * @description How the file was served: `MISS` rendered for this request (and charged), `HIT` not rendered
         *     for it — from the render cache, or joined to an identical render already in flight for
         *     another request (then `X-Service-Coalesced: true` says so); a HIT costs nothing.
         */
        CacheHeader: "HIT" | "MISS";
        /** @description `true` when this request joined an identical render already in flight for another request instead of rendering (its `X-Service-Cache` is `HIT`; usage counts it apart). Absent otherwise. */
        CoalescedHeader: "true";
        /**
         * @description A strong entity-tag of the exact body bytes (their SHA-256, hex, quoted), on every 200 of a
         *     GET answered with JSON or HTML. Send it back as `If-None-Match` to get 304 Not Modified, with
         *     no body, while the answer is unchanged; a changed answer comes back 200 with a new ETag. A
         *     request's `Cache-Control: no-cache` (which fetch adds to every request that sets
         *     `If-None-Match`) addresses caches and does not stop the 304.
         * @example "4e5ab2a1c3f4f05a1e4c2b3d7f0b0d7e0f8a9c1d2e3f4a5b6c7d8e9f0a1b2c3d"
         */
        ContentETag: string;
        /** @description `nosniff`: a browser uses the `Content-Type` as sent and never guesses another. */
        ContentTypeOptions: "nosniff";
        /** @description Credits this response cost (0 for a cache hit or a coalesced request, and always 0 in local mode). See `GET /v1/pricing`. */
        CreditsHeader: number;
        /**
         * @description The workspace's available balance (credits less those held by renders and jobs in progress)
         *     after this response's charge. Sent to an authenticated caller (an API key or a session) in hosted
         *     mode on every response that charged or could have charged: renders, recipe URLs, presets,
         *     batches, a job's submission (after its hold) and their 402 `insufficient_credits`. Never sent to a
         *     signed URL's or a signed base's anonymous caller, who learns nothing about the workspace, and
         *     never in local mode, which keeps no balance. A response that charged nothing (a cache hit) may
         *     show the balance this service process saw up to a second earlier.
         * @example 4820
         */
        CreditsRemainingHeader: number;
        /** @description `same-origin`: other sites cannot embed the answer. Every answer to a signed URL (its render, 304 and problems) says `cross-origin`, so a page that embeds one sees why it failed. */
        CrossOriginResourcePolicy: "same-origin" | "cross-origin";
        /** @description The engine profile that encoded the file: the one its generator version was released with (`versions[].engineVersion` of `GET /v1/generators/{slug}`), so a recipe's bytes never change under its `ETag`. */
        EngineHeader: string;
        /** @description `true` on a response replayed for a repeated `Idempotency-Key` (the operations that take one): no work was done, nothing charged. */
        IdempotentReplayed: "true";
        /** @description `no-store`: never kept by any cache (errors; account, key, job, preset, usage and billing data). */
        NoStore: "no-store";
        /** @description Public data that changes only with a deployment, the same for everyone: `public, max-age=60` (generators) or `public, max-age=300` (this document, the reference page, pricing). Such an answer is public: `Access-Control-Allow-Origin: *` and `Vary: Origin` whatever the `Origin`, and no `X-Request-Id`. */
        PublicCache: "public, max-age=60" | "public, max-age=300";
        /**
         * @description The most constrained rate-limit policy of this request and what is left of it
         *     (draft-ietf-httpapi-ratelimit-headers): `"<policy>";r=<remaining requests>;t=<seconds until the window resets>`.
         *     Sent on every response of an authenticated operation but a signed URL's (only its 429 has it:
         *     its other answers may be kept by a shared cache and served to anyone), and on a 401 or 429 for failed
         *     authentication (policy `"unauthenticated"`, counted per client address), and on every
         *     answer under `/v1/auth` (policy `"sign-in"`, per client address).
         * @example "key";r=299;t=60
         */
        RateLimit: string;
        /**
         * @description The rate-limit policies that apply to this request: `"workspace"` always, `"key"` for API-key
         *     requests, `"unauthenticated"` (per client address) for requests that fail authentication,
         *     `"sign-in"` (per client address) under `/v1/auth`, `"signed-address"` (per client address)
         *     for signed URLs (which count against no workspace or key policy) and `"signing-key"` (signed
         *     renders that miss the cache, per signing key); `q`
         *     is the quota (requests) and `w` the window (seconds). Sent on every response of an
         *     authenticated operation; on a signed URL's 429 only.
         * @example "workspace";q=600;w=60, "key";q=300;w=60
         */
        RateLimitPolicy: string;
        /** @description SHA-256 hex of the canonical recipe. */
        RecipeHashHeader: string;
        /** @description The base64url canonical recipe. */
        RecipeHeader: string;
        /** @description `no-referrer`: a page or file served here sends no `Referer` (which could carry a signed URL) when it loads anything. */
        ReferrerPolicy: "no-referrer";
        /**
         * @description The request's id: the caller's `X-Request-Id` when it is 8 to 128 characters of
         *     `A-Z a-z 0-9 . _ -`, else a new UUID. A problem document's `instance` is this id, and so is
         *     the `id` of the request's line in the service's log. Absent on an answer a shared cache may
         *     keep (`Cache-Control: public`: a signed URL's 200 and 304, the public JSON and HTML), whose copy
         *     would hand one client's id to every other; the log line still has it.
         * @example 0d6f4b9a-8c21-4e3f-a5b7-2c9e1d4f6a83
         */
        RequestId: string;
        /** @description The request headers that select this answer: `Origin` on an answer with CORS headers, and on every public answer whether or not the request carried an `Origin` (an unlisted one is refused, so a shared cache must not hand it the copy it keeps for others). */
        Vary: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAssets: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a `Link` header.
                 * @example MTc5NTQ2NzEzMjMxMjpqb2JfbUhLX01vazR3Vkc3V0lqYQ
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Assets of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    /** @description RFC 8288 link to the next page (`rel="next"`), when there is one. */
                    Link?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "ast_4b8e2d6f0a3c5e7b9d1f2a4c6e8b0d3f",
                     *         "kind": "font",
                     *         "contentType": "font/woff2",
                     *         "bytes": 23912,
                     *         "sha256": "4b8e2d6f0a3c5e7b9d1f2a4c6e8b0d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b",
                     *         "family": "Inter",
                     *         "weights": [
                     *           600
                     *         ],
                     *         "createdAt": "2026-11-29T07:13:02.518Z"
                     *       },
                     *       {
                     *         "id": "ast_9f2c4e1a7b3d5f608a1c2e4b6d8f0a1c",
                     *         "kind": "image",
                     *         "contentType": "image/jpeg",
                     *         "bytes": 482113,
                     *         "sha256": "9f2c4e1a7b3d5f608a1c2e4b6d8f0a1c3e5b7d9f1a2c4e6b8d0f1a3c5e7b9d1f",
                     *         "width": 1600,
                     *         "height": 1200,
                     *         "createdAt": "2026-11-29T07:12:44.120Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Asset"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createAsset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file itself, unencoded (no multipart, no base64). */
        requestBody: {
            content: {
                "font/otf": string;
                "font/ttf": string;
                "font/woff2": string;
                "image/jpeg": string;
                "image/png": string;
                "image/webp": string;
            };
        };
        responses: {
            /** @description These bytes are already an asset of the workspace (restored if it had been deleted). */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the asset. */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /** @description The new asset. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the asset. */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /** @description `invalid_image`: the image is truncated or corrupt; `animated_image`: it has several frames; `invalid_font`: the font fails validation; `validation_failed`: the body is empty; `malformed_json`: a JSON body that does not parse. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description `asset_limit_reached`: the workspace holds `ASSETS_PER_WORKSPACE` assets (default 1,000). */
            409: components["responses"]["Conflict"];
            /** @description `asset_too_large`: over `ASSET_IMAGE_MAX_BYTES` (images, default 10 MiB) or `ASSET_FONT_MAX_BYTES` (fonts, default 20 MiB), refused while the body is read; `image_too_large`: the header declares more than `ASSET_MAX_PIXELS` pixels (default 40,000,000); `payload_too_large`: a JSON body over `BODY_LIMIT_BYTES`. */
            413: components["responses"]["PayloadTooLarge"];
            /** @description `unsupported_asset_type`: the `Content-Type` is not an accepted asset type (SVG, GIF, WOFF, font collections and JSON are not); `asset_type_mismatch`: the bytes are not of the declared type; `unsupported_media_type`: a compressed body. */
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; `overloaded`: the machine gave the font check too little CPU to finish (it had not used its budget); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description `ast_` and the first 32 hex digits of the SHA-256 of the uploaded file; any other id answers 404 `asset_not_found`.
                 * @example ast_0d1f5e9a3b7c4e2f8a6b1c0d9e8f7a6b
                 */
                id: components["parameters"]["AssetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `asset_not_found`: no such asset in this workspace, or it was deleted. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    deleteAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description `ast_` and the first 32 hex digits of the SHA-256 of the uploaded file; any other id answers 404 `asset_not_found`.
                 * @example ast_0d1f5e9a3b7c4e2f8a6b1c0d9e8f7a6b
                 */
                id: components["parameters"]["AssetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `origin_denied`: the `Origin` is not in `ALLOWED_ORIGINS`, or a cookie-authenticated delete carries no listed `Origin`. */
            403: components["responses"]["Forbidden"];
            /** @description `asset_not_found`: no such asset in this workspace, or it was deleted. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getAuthConfig: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Providers and session. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthConfig"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    renderSigningBase: {
        parameters: {
            query?: {
                /**
                 * @description The slot values, one query parameter per slot (`title=Hello%20world`), each once.
                 * @example {
                 *       "title": "Hello world"
                 *     }
                 */
                slots?: {
                    [key: string]: string;
                };
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example sb_Vq3k9XzA1bC2dE3f */
                baseId: components["parameters"]["SigningBaseId"];
                /**
                 * @description The base's signature (base64url HMAC-SHA256, 43 characters) and the extension of its format.
                 * @example 7mVtq0QmPqD3bKq8hY0vQ9yH1Zr5s2W4xT6uJ8kLnOc.png
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedFile"];
            304: components["responses"]["NotModified"];
            /** @description `validation_failed`: a query parameter that is not a slot, given twice, missing or refused by its rules (the issue names `query.<slot>`). */
            400: components["responses"]["BadRequest"];
            /** @description An unknown or deleted base, a signature or extension that does not match the base, or a revoked key (`detail` says which). */
            401: components["responses"]["Unauthorized"];
            /** @description `signing_key_limit_reached`: the render would pass the signing key's `monthlyCreditLimit` this month; `insufficient_credits` (hosted mode): the workspace cannot pay for it. Both in general terms, without figures. */
            402: components["responses"]["PaymentRequired"];
            /** @description `origin_denied`: the `Origin` is not in `ALLOWED_ORIGINS`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description `signed_url_expired`: the base is past its expiry (permanent: make a new base). */
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database is unavailable or the process is still starting; `overloaded`: the render queue is full; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    renderBatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
                 *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
                 *     does no work and charges nothing. The same key with a different body → 422
                 *     `idempotency_key_reused`; a replay while the first request still runs → 409
                 *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
                 *     per workspace; use a UUID.
                 * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description One result per item, in request order. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "X-Service-Credits-Remaining": components["headers"]["CreditsRemainingHeader"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description `idempotency_in_progress`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database is unavailable — a restart or failover — and no item of the batch could be rendered (nothing was charged; a database that goes away after an item rendered gives 200 with the rest `not_ready`), or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getBilling: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's balance, the packs on offer and its purchases. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "balance": {
                     *         "credits": 11850,
                     *         "reserved": 7,
                     *         "available": 11843
                     *       },
                     *       "packs": [
                     *         {
                     *           "id": "starter",
                     *           "name": "Starter — 1,000 credits",
                     *           "credits": 1000,
                     *           "amount": 1000,
                     *           "currency": "usd"
                     *         },
                     *         {
                     *           "id": "studio",
                     *           "name": "Studio — 12,000 credits",
                     *           "credits": 12000,
                     *           "amount": 10000,
                     *           "currency": "usd"
                     *         },
                     *         {
                     *           "id": "production",
                     *           "name": "Production — 150,000 credits",
                     *           "credits": 150000,
                     *           "amount": 100000,
                     *           "currency": "usd"
                     *         }
                     *       ],
                     *       "purchases": [
                     *         {
                     *           "id": "pur_Xk2v9QmT4sLp8RwZ",
                     *           "packId": "studio",
                     *           "credits": 12000,
                     *           "amount": 10000,
                     *           "currency": "usd",
                     *           "status": "completed",
                     *           "createdAt": "2026-11-02T14:21:07.512Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Billing"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createCheckout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
                 *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
                 *     does no work and charges nothing. The same key with a different body → 422
                 *     `idempotency_key_reused`; a replay while the first request still runs → 409
                 *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
                 *     per workspace; use a UUID.
                 * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "packId": "studio"
                 *     }
                 */
                "application/json": components["schemas"]["CheckoutCreate"];
            };
        };
        responses: {
            /** @description The checkout session. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cs_test_a1B2c3D4e5F6g7H8i9J0kLmN",
                     *       "url": "https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8i9J0kLmN"
                     *     }
                     */
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `idempotency_in_progress`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `idempotency_key_reused`: this `Idempotency-Key` was already used with another request body. */
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            501: components["responses"]["NotImplemented"];
            502: components["responses"]["BadGateway"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    handlePaymentWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
                 * @example t=1795467132,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
                 */
                "Payment-Signature"?: string;
                /** @description The same signature under Stripe's own header name; never together with `Payment-Signature`. */
                "Stripe-Signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The event was accepted (or had been already). */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        duplicate?: boolean;
                        received: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            501: components["responses"]["NotImplemented"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    generate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
                 *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
                 *     does no work and charges nothing. The same key with a different body → 422
                 *     `idempotency_key_reused`; a replay while the first request still runs → 409
                 *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
                 *     per workspace; use a UUID.
                 * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description A generator slug from `GET /v1/generators`, or one of the workspace's templates — `tpl_…` (its latest version) or `tpl_…@2` (version 2). */
                slug: components["parameters"]["RecipeSlug"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RecipeInput"];
            };
        };
        responses: {
            200: components["responses"]["RenderedFile"];
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `insufficient_credits` (hosted mode): the workspace cannot pay for this uncached render; `cost` and `balance` say why. */
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `idempotency_in_progress`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `upstream_error`: FFmpeg failed to encode the gif or mp4. */
            502: components["responses"]["BadGateway"];
            /** @description `overloaded`: the render queue is full (`RENDER_QUEUE_LIMIT`); `not_ready`: gif or mp4 asked of a server without a working FFmpeg; `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            /** @description `render_timeout`: the render passed `RENDER_TIMEOUT_MS`; `animation_budget_exceeded`: a gif or mp4 passed `ANIMATION_BUDGET_MS` (export it with `POST /v1/jobs`). */
            504: components["responses"]["GatewayTimeout"];
            default: components["responses"]["Problem"];
        };
    };
    listGenerators: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every generator, sorted by slug. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "slug": "mesh-gradient",
                     *         "name": "Mesh gradient",
                     *         "description": "Soft multi-point mesh gradient: coloured control points blended into a smooth wallpaper, with optional film grain.",
                     *         "version": "1.1.0",
                     *         "animated": false,
                     *         "formats": [
                     *           "png",
                     *           "webp",
                     *           "jpeg",
                     *           "svg"
                     *         ],
                     *         "defaultSize": {
                     *           "width": 1920,
                     *           "height": 1080
                     *         },
                     *         "suggestedSize": {
                     *           "width": 1920,
                     *           "height": 1080
                     *         },
                     *         "defaults": {
                     *           "palette": [
                     *             "#ff5e7e",
                     *             "#ffb86b",
                     *             "#7c5cff",
                     *             "#22c1ee",
                     *             "#ff8bd1"
                     *           ],
                     *           "background": "#3b2a8f",
                     *           "points": 7,
                     *           "softness": 0.85,
                     *           "grain": 0.04
                     *         },
                     *         "paramSchema": {
                     *           "type": "object",
                     *           "additionalProperties": false,
                     *           "properties": {
                     *             "palette": {
                     *               "type": "array",
                     *               "title": "Palette",
                     *               "minItems": 2,
                     *               "maxItems": 8,
                     *               "items": {
                     *                 "type": "string",
                     *                 "pattern": "^#[0-9a-fA-F]{6}$",
                     *                 "format": "color"
                     *               }
                     *             },
                     *             "background": {
                     *               "type": "string",
                     *               "title": "Base colour",
                     *               "pattern": "^#[0-9a-fA-F]{6}$",
                     *               "format": "color",
                     *               "default": "#3b2a8f"
                     *             },
                     *             "points": {
                     *               "type": "integer",
                     *               "title": "Control points",
                     *               "minimum": 2,
                     *               "maximum": 16,
                     *               "default": 7
                     *             },
                     *             "softness": {
                     *               "type": "number",
                     *               "title": "Softness",
                     *               "minimum": 0.3,
                     *               "maximum": 1.5,
                     *               "default": 0.85
                     *             },
                     *             "grain": {
                     *               "type": "number",
                     *               "title": "Grain",
                     *               "minimum": 0,
                     *               "maximum": 0.3,
                     *               "default": 0.04
                     *             }
                     *           }
                     *         },
                     *         "animation": null
                     *       },
                     *       {
                     *         "slug": "plasma",
                     *         "name": "Plasma",
                     *         "description": "Classic colourful plasma: interfering sine waves and ripples mapped through a cycling palette, looping seamlessly.",
                     *         "version": "1.2.0",
                     *         "animated": true,
                     *         "formats": [
                     *           "gif",
                     *           "mp4",
                     *           "png",
                     *           "webp",
                     *           "jpeg"
                     *         ],
                     *         "defaultSize": {
                     *           "width": 1920,
                     *           "height": 1080
                     *         },
                     *         "suggestedSize": {
                     *           "width": 1920,
                     *           "height": 1080
                     *         },
                     *         "defaults": {
                     *           "palette": [
                     *             "#10062b",
                     *             "#2b2dd6",
                     *             "#ff3d9a",
                     *             "#ff9f1c",
                     *             "#fff275",
                     *             "#2de2e6"
                     *           ],
                     *           "scale": 1,
                     *           "speed": 1,
                     *           "colorCycles": 1,
                     *           "detail": 240,
                     *           "fps": 24,
                     *           "duration": 3
                     *         },
                     *         "paramSchema": {
                     *           "type": "object",
                     *           "additionalProperties": false,
                     *           "properties": {
                     *             "palette": {
                     *               "type": "array",
                     *               "title": "Palette",
                     *               "minItems": 2,
                     *               "maxItems": 8,
                     *               "items": {
                     *                 "type": "string",
                     *                 "pattern": "^#[0-9a-fA-F]{6}$",
                     *                 "format": "color"
                     *               }
                     *             },
                     *             "scale": {
                     *               "type": "number",
                     *               "title": "Scale",
                     *               "minimum": 0.25,
                     *               "maximum": 4,
                     *               "default": 1
                     *             },
                     *             "speed": {
                     *               "type": "integer",
                     *               "title": "Speed",
                     *               "minimum": 1,
                     *               "maximum": 5,
                     *               "default": 1
                     *             },
                     *             "colorCycles": {
                     *               "type": "integer",
                     *               "title": "Colour cycles",
                     *               "minimum": 1,
                     *               "maximum": 4,
                     *               "default": 1
                     *             },
                     *             "detail": {
                     *               "type": "integer",
                     *               "title": "Detail",
                     *               "minimum": 64,
                     *               "maximum": 320,
                     *               "default": 240
                     *             },
                     *             "fps": {
                     *               "type": "integer",
                     *               "title": "Frame rate",
                     *               "minimum": 10,
                     *               "maximum": 30,
                     *               "default": 24
                     *             },
                     *             "duration": {
                     *               "type": "number",
                     *               "title": "Duration",
                     *               "minimum": 1,
                     *               "maximum": 10,
                     *               "default": 3
                     *             }
                     *           }
                     *         },
                     *         "animation": {
                     *           "fps": 24,
                     *           "frames": 72
                     *         }
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Generator"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getGenerator: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description A generator slug from `GET /v1/generators`. */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The generator. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeneratorDetail"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "engineVersion": "1.4.0",
                     *       "rendererVersion": "canvas-1.1.1+sharp-0.35.5/libvips-8.18.7+ffmpeg-N-47683-g0e8eb07980-static+cpu-baseline-x86-64-sse4.2",
                     *       "generators": 20,
                     *       "revision": "c8d136b",
                     *       "animationBudgetMs": 20000,
                     *       "limits": {
                     *         "minSide": 16,
                     *         "maxSide": 4096,
                     *         "minPixelRatio": 0.5,
                     *         "maxPixelRatio": 3,
                     *         "maxFramePixels": 40000000,
                     *         "maxAnimationPixels": 625000000,
                     *         "gifMaxFps": 15
                     *       },
                     *       "formats": {
                     *         "png": {
                     *           "contentType": "image/png",
                     *           "extension": "png",
                     *           "kind": "still",
                     *           "defaultQuality": null
                     *         },
                     *         "webp": {
                     *           "contentType": "image/webp",
                     *           "extension": "webp",
                     *           "kind": "still",
                     *           "defaultQuality": null
                     *         },
                     *         "jpeg": {
                     *           "contentType": "image/jpeg",
                     *           "extension": "jpg",
                     *           "kind": "still",
                     *           "defaultQuality": 82
                     *         },
                     *         "gif": {
                     *           "contentType": "image/gif",
                     *           "extension": "gif",
                     *           "kind": "motion",
                     *           "defaultQuality": null
                     *         },
                     *         "mp4": {
                     *           "contentType": "video/mp4",
                     *           "extension": "mp4",
                     *           "kind": "motion",
                     *           "defaultQuality": null
                     *         },
                     *         "svg": {
                     *           "contentType": "image/svg+xml",
                     *           "extension": "svg",
                     *           "kind": "text",
                     *           "defaultQuality": null
                     *         },
                     *         "css": {
                     *           "contentType": "text/css",
                     *           "extension": "css",
                     *           "kind": "text",
                     *           "defaultQuality": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            default: components["responses"]["Problem"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a `Link` header.
                 * @example MTc5NTQ2NzEzMjMxMjpqb2JfbUhLX01vazR3Vkc3V0lqYQ
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
                /** @example completed */
                status?: components["schemas"]["JobStatus"];
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Jobs of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    /** @description RFC 8288 link to the next page (`rel="next"`), when there is one. */
                    Link?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "job_NN8ndqmfzzkWSR0-",
                     *         "slug": "plasma",
                     *         "status": "completed",
                     *         "finished": true,
                     *         "progress": 1,
                     *         "attempts": 1,
                     *         "createdAt": "2026-11-23T20:52:04.218Z",
                     *         "updatedAt": "2026-11-23T20:52:05.044Z",
                     *         "cancelled": false,
                     *         "resultReady": true,
                     *         "format": "mp4",
                     *         "recipeHash": "11e47ad37ad958c419837885bfa75589319052d937647eb34d662022a546b46b",
                     *         "contentType": "video/mp4",
                     *         "resultUrl": "/v1/jobs/job_NN8ndqmfzzkWSR0-/result",
                     *         "expiresAt": "2026-11-30T20:52:05.044Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Job"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
                 *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
                 *     does no work and charges nothing. The same key with a different body → 422
                 *     `idempotency_key_reused`; a replay while the first request still runs → 409
                 *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
                 *     per workspace; use a UUID.
                 * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobCreate"];
            };
        };
        responses: {
            /** @description The job was accepted and queued. */
            202: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    /** @description URL of the job. */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "X-Service-Credits-Remaining": components["headers"]["CreditsRemainingHeader"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "job_NN8ndqmfzzkWSR0-",
                     *       "slug": "plasma",
                     *       "status": "queued",
                     *       "finished": false,
                     *       "progress": 0,
                     *       "attempts": 0,
                     *       "createdAt": "2026-11-23T20:52:04.218Z",
                     *       "updatedAt": "2026-11-23T20:52:04.218Z",
                     *       "cancelled": false,
                     *       "resultReady": false,
                     *       "format": "mp4",
                     *       "recipeHash": "11e47ad37ad958c419837885bfa75589319052d937647eb34d662022a546b46b"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `insufficient_credits` (hosted mode): the workspace cannot hold the job's credits; `cost` and `balance` say why. `signing_key_limit_reached`: the job would pass the calling API key's `monthlyCreditLimit` this UTC month; `detail`, `cost`, `monthlyCreditLimit` and `creditsSpentThisMonth` say by how much. Nothing is queued or held. */
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `idempotency_in_progress`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database is unavailable — a restart or failover —, object storage (where results are kept) is known to be unreachable so the result could not be stored, or the process is still starting; see `Retry-After`. Nothing is queued or reserved. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example job_NN8ndqmfzzkWSR0- */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_NN8ndqmfzzkWSR0- */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job with `cancelled` true; `status` is `cancelled` for a job that was queued, `running` for one still stopping. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    streamJobEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_NN8ndqmfzzkWSR0- */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    /** @description `no`: a proxy in front (nginx) passes each event on at once instead of buffering the stream. */
                    "X-Accel-Buffering"?: "no";
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 1
                     *     event: status
                     *     data: {"id":"job_NN8ndqmfzzkWSR0-","slug":"plasma","status":"running","finished":false,"progress":0.1,"attempts":1,"createdAt":"2026-11-23T20:52:04.218Z","updatedAt":"2026-11-23T20:52:04.420Z","cancelled":false,"resultReady":false,"format":"mp4","recipeHash":"11e47ad37ad958c419837885bfa75589319052d937647eb34d662022a546b46b"}
                     *
                     *     id: 2
                     *     event: progress
                     *     data: {"progress":0.42}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A rate limit is used up (`rate_limited`), or the workspace holds too many open event streams (`too_many_streams`); see `Retry-After`. */
            429: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: this process is shutting down; reconnect (another process serves the stream); `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getJobResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_NN8ndqmfzzkWSR0- */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exported file, byte-identical to the synchronous render of the same recipe. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    /** @description `private, no-store`: the file is downloaded, never kept by a cache. */
                    "Cache-Control"?: "private, no-store";
                    "Content-Disposition"?: string;
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": string;
                    "image/jpeg": string;
                    "image/png": string;
                    "image/svg+xml": string;
                    "image/webp": string;
                    "text/css": string;
                    "video/mp4": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getJobThumbnail: {
        parameters: {
            query?: {
                /**
                 * @description Pixel ratio of the thumbnail (the screen's devicePixelRatio); default 1. It is served at the next of 1, 1.5, 2 and 3 up from it, so ratios that give the same picture share one render (at most four per job).
                 * @example 2
                 */
                pr?: number;
            };
            header?: never;
            path: {
                /** @example job_NN8ndqmfzzkWSR0- */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The thumbnail. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    /** @description `private, max-age=86400`: a job's recipe never changes, so neither does its thumbnail. */
                    "Cache-Control"?: "private, max-age=86400";
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/webp": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `overloaded`: the render queue is full (`RENDER_QUEUE_LIMIT`); `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            /** @description `render_timeout`: the render passed `RENDER_TIMEOUT_MS`. */
            504: components["responses"]["GatewayTimeout"];
            default: components["responses"]["Problem"];
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Keys of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "key_XYpCcc0P27KbouXvksC0",
                     *         "label": "CI deploys",
                     *         "prefix": "svc_live_F22a5d",
                     *         "scopes": [
                     *           "render"
                     *         ],
                     *         "monthlyCreditLimit": 5000,
                     *         "creditsSpentThisMonth": 1274,
                     *         "createdAt": "2026-11-23T20:52:12.329Z",
                     *         "lastUsedAt": "2026-11-23T21:04:51.007Z",
                     *         "revoked": false,
                     *         "revokedAt": null
                     *       },
                     *       {
                     *         "id": "key_0aYtq3WcN8mVb2LhR5sE",
                     *         "label": "laptop",
                     *         "prefix": "svc_live_9QxTe1",
                     *         "scopes": null,
                     *         "monthlyCreditLimit": null,
                     *         "creditsSpentThisMonth": 0,
                     *         "createdAt": "2026-10-02T08:15:40.112Z",
                     *         "lastUsedAt": "2026-11-20T17:30:02.981Z",
                     *         "revoked": true,
                     *         "revokedAt": "2026-11-21T09:00:00.000Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first request with a key runs and its response is kept for 24 hours;
                 *     a replay with the same body returns that response (with `Idempotent-Replayed: true`) and
                 *     does no work and charges nothing. The same key with a different body → 422
                 *     `idempotency_key_reused`; a replay while the first request still runs → 409
                 *     `idempotency_in_progress`. Error responses and responses over 16 MB are not kept. Keys are
                 *     per workspace; use a UUID.
                 * @example 5f0c8a52-3d1e-4b7a-9c26-8e4f1a7d2b90
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyCreate"];
            };
        };
        responses: {
            /** @description The new key, with its secret. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    /** @description URL of the key (`DELETE` it to revoke). */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_XYpCcc0P27KbouXvksC0",
                     *       "label": "CI deploys",
                     *       "prefix": "svc_live_F22a5d",
                     *       "scopes": [
                     *         "render"
                     *       ],
                     *       "monthlyCreditLimit": 5000,
                     *       "creditsSpentThisMonth": 0,
                     *       "createdAt": "2026-11-23T20:52:12.329Z",
                     *       "lastUsedAt": null,
                     *       "revoked": false,
                     *       "revokedAt": null,
                     *       "secret": "svc_live_F22a5dzfGD4S2cgqZqklNMXoyh0Qsr3z"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example key_XYpCcc0P27KbouXvksC0 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_XYpCcc0P27KbouXvksC0",
                     *       "label": "CI deploys",
                     *       "prefix": "svc_live_F22a5d",
                     *       "scopes": [
                     *         "render"
                     *       ],
                     *       "monthlyCreditLimit": 5000,
                     *       "creditsSpentThisMonth": 1274,
                     *       "createdAt": "2026-11-23T20:52:12.329Z",
                     *       "lastUsedAt": "2026-11-23T21:04:51.007Z",
                     *       "revoked": true,
                     *       "revokedAt": "2026-11-23T21:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    mcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JsonRpcMessage"];
            };
        };
        responses: {
            /** @description The JSON-RPC response to a request. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"];
                };
            };
            /** @description A notification or a response, accepted; no body. */
            202: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Owner, workspace and balance. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Render Service API",
                     *         "version": "0.4.0"
                     *       },
                     *       "paths": {
                     *         "/v1/health": {
                     *           "get": {
                     *             "operationId": "getHealth",
                     *             "summary": "Liveness and versions"
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    listPresets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Presets of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "pre_P3Rpn4k6qDdDAO2x5CaX",
                     *         "name": "Blog header",
                     *         "recipe": {
                     *           "slug": "mesh-gradient",
                     *           "seed": 7,
                     *           "size": {
                     *             "width": 1200,
                     *             "height": 630
                     *           },
                     *           "format": "webp"
                     *         },
                     *         "recipeHash": "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320",
                     *         "createdAt": "2026-11-23T20:52:12.354Z",
                     *         "updatedAt": "2026-11-23T20:52:12.354Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Preset"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createPreset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PresetCreate"];
            };
        };
        responses: {
            /** @description The saved preset. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the preset. */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pre_P3Rpn4k6qDdDAO2x5CaX",
                     *       "name": "Blog header",
                     *       "recipe": {
                     *         "slug": "mesh-gradient",
                     *         "seed": 7,
                     *         "size": {
                     *           "width": 1200,
                     *           "height": 630
                     *         },
                     *         "format": "webp"
                     *       },
                     *       "recipeHash": "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320",
                     *       "createdAt": "2026-11-23T20:52:12.354Z",
                     *       "updatedAt": "2026-11-23T20:52:12.354Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Preset"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getPreset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preset. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pre_P3Rpn4k6qDdDAO2x5CaX",
                     *       "name": "Blog header",
                     *       "recipe": {
                     *         "slug": "mesh-gradient",
                     *         "seed": 7,
                     *         "size": {
                     *           "width": 1200,
                     *           "height": 630
                     *         },
                     *         "format": "webp"
                     *       },
                     *       "recipeHash": "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320",
                     *       "createdAt": "2026-11-23T20:52:12.354Z",
                     *       "updatedAt": "2026-11-23T20:52:12.354Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Preset"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    deletePreset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `origin_denied`: the `Origin` is not in `ALLOWED_ORIGINS`, or a cookie-authenticated delete carries no listed `Origin`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    updatePreset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PresetUpdate"];
            };
        };
        responses: {
            /** @description The updated preset. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pre_P3Rpn4k6qDdDAO2x5CaX",
                     *       "name": "Blog header (dark)",
                     *       "recipe": {
                     *         "slug": "mesh-gradient",
                     *         "seed": 7,
                     *         "size": {
                     *           "width": 1200,
                     *           "height": 630
                     *         },
                     *         "format": "webp"
                     *       },
                     *       "recipeHash": "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320",
                     *       "createdAt": "2026-11-23T20:52:12.354Z",
                     *       "updatedAt": "2026-11-23T21:20:45.918Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Preset"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    renderPreset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example pre_P3Rpn4k6qDdDAO2x5CaX */
                id: components["parameters"]["PresetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedFile"];
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `insufficient_credits` (hosted mode): the workspace cannot pay for this uncached render; `cost` and `balance` say why. */
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `upstream_error`: FFmpeg failed to encode the gif or mp4. */
            502: components["responses"]["BadGateway"];
            /** @description `overloaded`: the render queue is full (`RENDER_QUEUE_LIMIT`); `not_ready`: gif or mp4 asked of a server without a working FFmpeg; `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            /** @description `render_timeout`: the render passed `RENDER_TIMEOUT_MS`; `animation_budget_exceeded`: a gif or mp4 passed `ANIMATION_BUDGET_MS` (export it with `POST /v1/jobs`). */
            504: components["responses"]["GatewayTimeout"];
            default: components["responses"]["Problem"];
        };
    };
    getPricing: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How renders are priced, and what can be bought. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "unit": "One credit renders 1,000,000 output pixels (or pixel-frames for animations); every cache miss costs at least one.",
                     *       "rules": [
                     *         {
                     *           "description": "A still render (png, webp, jpeg): one credit per started million output pixels (width × pixelRatio × height × pixelRatio); 1920×1080 costs 3.",
                     *           "credits": 1
                     *         },
                     *         {
                     *           "description": "An animation (gif, mp4): one credit per started million output pixel-frames; 640×360 for 2 s at 15 fps costs 7.",
                     *           "credits": 1
                     *         },
                     *         {
                     *           "description": "A vector render (svg, css).",
                     *           "credits": 1
                     *         },
                     *         {
                     *           "description": "A cache hit (the same recipe again, by anyone in the workspace), a request that joined an identical render already in flight (X-Service-Coalesced: true), an export job whose result was already cached, or a 304 Not Modified.",
                     *           "credits": 0
                     *         }
                     *       ],
                     *       "packs": [
                     *         {
                     *           "id": "starter",
                     *           "name": "Starter — 1,000 credits",
                     *           "credits": 1000,
                     *           "amount": 1000,
                     *           "currency": "usd"
                     *         },
                     *         {
                     *           "id": "studio",
                     *           "name": "Studio — 12,000 credits",
                     *           "credits": 12000,
                     *           "amount": 10000,
                     *           "currency": "usd"
                     *         },
                     *         {
                     *           "id": "production",
                     *           "name": "Production — 150,000 credits",
                     *           "credits": 150000,
                     *           "amount": 100000,
                     *           "currency": "usd"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Pricing"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description The price and the estimate, as of now. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quote"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `generator_not_found` or `template_not_found`: the render or job names a generator this service does not run, or a template that is not the workspace's (a batch reports it in the item). */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database is unavailable — a restart or failover — (a template is read from it), or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "database": true,
                     *       "ffmpeg": true,
                     *       "blobStore": true,
                     *       "engineVersion": "1.4.0",
                     *       "rendererVersion": "canvas-1.1.1+sharp-0.35.5/libvips-8.18.7+ffmpeg-N-47683-g0e8eb07980-static+cpu-baseline-x86-64-sse4.2"
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description A dependency is not ready. The problem document carries the same readiness fields. */
            503: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    "Retry-After"?: number;
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "/v1/reference#problem-not_ready",
                     *       "status": 503,
                     *       "code": "not_ready",
                     *       "title": "The service is not ready",
                     *       "detail": "Not ready: database unavailable.",
                     *       "instance": "6a1f3c9e-2b47-4d85-9e0c-7f3b2a1d5c84",
                     *       "ok": false,
                     *       "database": false,
                     *       "ffmpeg": true,
                     *       "blobStore": true,
                     *       "engineVersion": "1.4.0",
                     *       "rendererVersion": "canvas-1.1.1+sharp-0.35.5/libvips-8.18.7+ffmpeg-N-47683-g0e8eb07980-static+cpu-baseline-x86-64-sse4.2"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"] & components["schemas"]["Readiness"];
                };
            };
            default: components["responses"]["Problem"];
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    /** @description The page runs only its own script and Redoc's bundle from this origin; no third-party requests. */
                    "Content-Security-Policy"?: string;
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    renderRecipe: {
        parameters: {
            query: {
                /**
                 * @description Signed URLs only, before `sig` (optional). When the URL expires, in unix seconds; after it the URL answers 410 `signed_url_expired`.
                 * @example 1790000000
                 */
                exp?: number;
                /** @example jpeg */
                format?: components["schemas"]["Format"];
                /**
                 * @description Output height, overriding the recipe.
                 * @example 315
                 */
                h?: number;
                /**
                 * @description Signed URLs only, before `sig`. The id of the URL signing key that signed the URL.
                 * @example usk_6c2NfJ0kQm3xV8pR4tYw
                 */
                kid?: string;
                /**
                 * @description Pixel ratio, overriding the recipe.
                 * @example 2
                 */
                pr?: number;
                /**
                 * @description JPEG quality, overriding the recipe's; only when the format rendered is jpeg (else 400 naming `query.q`).
                 * @example 85
                 */
                q?: components["schemas"]["Quality"];
                /**
                 * @description The base64url canonical recipe.
                 * @example eyJmb3JtYXQiOiJ3ZWJwIiwiZ2VuZXJhdG9yIjoibWVzaC1ncmFkaWVudCIsInBhcmFtcyI6eyJiYWNrZ3JvdW5kIjoiIzNiMmE4ZiIsImdyYWluIjowLjA0LCJwYWxldHRlIjpbIiNmZjVlN2UiLCIjZmZiODZiIiwiIzdjNWNmZiIsIiMyMmMxZWUiLCIjZmY4YmQxIl0sInBvaW50cyI6Nywic29mdG5lc3MiOjAuODV9LCJzZWVkIjo3LCJzaXplIjp7ImhlaWdodCI6NjMwLCJwaXhlbFJhdGlvIjoxLCJ3aWR0aCI6MTIwMH0sInYiOjEsInZlcnNpb24iOiIxLjIuMCJ9
                 */
                r: string;
                /**
                 * @description Signed URLs only, and the last parameter: base64url (no padding) HMAC-SHA256, keyed with
                 *     SHA-256 of the signing key's secret, of the request target up to (not including) `&sig=`.
                 *     Its name and value are matched byte for byte: percent-encoded, either is 401.
                 * @example 7mVtq0QmPqD3bKq8hY0vQ9yH1Zr5s2W4xT6uJ8kLnOc
                 */
                sig?: string;
                /**
                 * @description Output width, overriding the recipe.
                 * @example 600
                 */
                w?: number;
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Lowercase hex SHA-256 of the canonical recipe, optionally followed by the file extension
                 *     of the format rendered (`.png`, `.webp`, `.jpg`, `.gif`, `.mp4`, `.svg`, `.css`) for places that
                 *     want a file name; an extension that is not the format rendered's (the recipe's, or `format`)
                 *     answers 400 `validation_failed` naming `path.recipeHash`.
                 * @example d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320
                 */
                recipeHash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedFile"];
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            /** @description Missing, invalid or revoked credentials; for a signed URL a signature that does not match, an unsigned or repeated parameter, or an unknown or revoked `kid` (`detail` says which, never echoing the signature). */
            401: components["responses"]["Unauthorized"];
            /** @description `insufficient_credits` (hosted mode): the workspace cannot pay for this uncached render; `cost` and `balance` say why, except to a signed URL, which is told in general terms that the image is unavailable because its account has not enough credits. `signing_key_limit_reached` (signed URLs): the render would pass the signing key's `monthlyCreditLimit` this month (`detail` says so in general terms; the limit and spending are in `GET /v1/url-signing-keys`). */
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            /** @description `generator_not_found`: the decoded recipe names a generator this service does not run. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `signed_url_expired`: the signed URL is past its `exp` (permanent: sign a new URL); `recipe_outdated`: the recipe pins a generator version no longer served. */
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `upstream_error`: FFmpeg failed to encode the gif or mp4. */
            502: components["responses"]["BadGateway"];
            /** @description `overloaded`: the render queue is full (`RENDER_QUEUE_LIMIT`); `not_ready`: gif or mp4 asked of a server without a working FFmpeg; `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            /** @description `render_timeout`: the render passed `RENDER_TIMEOUT_MS`; `animation_budget_exceeded`: a gif or mp4 passed `ANIMATION_BUDGET_MS` (export it with `POST /v1/jobs`). */
            504: components["responses"]["GatewayTimeout"];
            default: components["responses"]["Problem"];
        };
    };
    listTemplateStarters: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The starters. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "avatar-initials",
                     *         "name": "Avatar with initials",
                     *         "description": "An avatar (256×256): one to three initials on a gradient that the initials choose.",
                     *         "template": {
                     *           "name": "Avatar with initials",
                     *           "size": {
                     *             "width": 256,
                     *             "height": 256
                     *           },
                     *           "background": "#1e1b4b",
                     *           "variables": {
                     *             "type": "object",
                     *             "properties": {
                     *               "initials": {
                     *                 "type": "string",
                     *                 "minLength": 1,
                     *                 "maxLength": 3,
                     *                 "default": "AL"
                     *               }
                     *             }
                     *           },
                     *           "layers": [
                     *             {
                     *               "id": "background",
                     *               "kind": "generator",
                     *               "slug": "mesh-gradient"
                     *             },
                     *             {
                     *               "id": "letters",
                     *               "kind": "text",
                     *               "text": "{{initials}}",
                     *               "box": {
                     *                 "x": 24,
                     *                 "y": 24,
                     *                 "width": 208,
                     *                 "height": 208
                     *               },
                     *               "align": "center",
                     *               "valign": "middle",
                     *               "color": "#ffffff",
                     *               "font": {
                     *                 "weight": 700
                     *               },
                     *               "fit": {
                     *                 "max": 112,
                     *                 "min": 40,
                     *                 "maxLines": 1
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["TemplateStarterList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the process is starting and waits for its database (`STARTUP_WAIT_SECONDS`); see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /**
                 * @description Opaque cursor from a `Link` header.
                 * @example MTc5NTQ2NzEzMjMxMjpqb2JfbUhLX01vazR3Vkc3V0lqYQ
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size.
                 * @example 50
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Templates of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    /** @description RFC 8288 link to the next page (`rel="next"`), when there is one. */
                    Link?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "tpl_5Zq1xW8yT3nB0cV7mK2r",
                     *         "name": "Blog og:image",
                     *         "version": 2,
                     *         "size": {
                     *           "width": 1200,
                     *           "height": 630
                     *         },
                     *         "createdAt": "2026-11-29T07:10:12.354Z",
                     *         "updatedAt": "2026-11-29T07:31:40.101Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["TemplateSummary"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateCreate"];
            };
        };
        responses: {
            /** @description The template, at version 1. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the template. */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "tpl_5Zq1xW8yT3nB0cV7mK2r",
                     *       "name": "Blog og:image",
                     *       "version": 1,
                     *       "size": {
                     *         "width": 1200,
                     *         "height": 630
                     *       },
                     *       "variables": {
                     *         "type": "object",
                     *         "required": [
                     *           "title"
                     *         ],
                     *         "properties": {
                     *           "title": {
                     *             "type": "string",
                     *             "maxLength": 200
                     *           },
                     *           "author": {
                     *             "type": "string",
                     *             "default": "The team"
                     *           }
                     *         }
                     *       },
                     *       "layers": [
                     *         {
                     *           "id": "background",
                     *           "kind": "generator",
                     *           "slug": "mesh-gradient",
                     *           "seed": 7
                     *         },
                     *         {
                     *           "id": "badge",
                     *           "kind": "shape",
                     *           "shape": "rectangle",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 56,
                     *             "width": 96,
                     *             "height": 96
                     *           },
                     *           "radius": 24,
                     *           "fill": "#ffffff",
                     *           "opacity": 0.9
                     *         },
                     *         {
                     *           "id": "title",
                     *           "kind": "text",
                     *           "text": "{{title}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 200,
                     *             "width": 1072,
                     *             "height": 300
                     *           },
                     *           "font": {
                     *             "family": "Space Grotesk",
                     *             "weight": 700
                     *           },
                     *           "color": "#ffffff",
                     *           "fit": {
                     *             "max": 96,
                     *             "min": 40,
                     *             "maxLines": 3,
                     *             "overflow": "ellipsis"
                     *           }
                     *         },
                     *         {
                     *           "id": "author",
                     *           "kind": "text",
                     *           "text": "by {{author}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 530,
                     *             "width": 800,
                     *             "height": 48
                     *           },
                     *           "color": "#e2e8f0",
                     *           "fit": {
                     *             "max": 32
                     *           }
                     *         }
                     *       ],
                     *       "createdAt": "2026-11-29T07:10:12.354Z",
                     *       "updatedAt": "2026-11-29T07:31:40.101Z",
                     *       "versions": [
                     *         {
                     *           "version": 1,
                     *           "name": "Blog og:image",
                     *           "createdAt": "2026-11-29T07:10:12.354Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "tpl_5Zq1xW8yT3nB0cV7mK2r",
                     *       "name": "Blog og:image",
                     *       "version": 2,
                     *       "size": {
                     *         "width": 1200,
                     *         "height": 630
                     *       },
                     *       "variables": {
                     *         "type": "object",
                     *         "required": [
                     *           "title"
                     *         ],
                     *         "properties": {
                     *           "title": {
                     *             "type": "string",
                     *             "maxLength": 200
                     *           },
                     *           "author": {
                     *             "type": "string",
                     *             "default": "The team"
                     *           }
                     *         }
                     *       },
                     *       "layers": [
                     *         {
                     *           "id": "background",
                     *           "kind": "generator",
                     *           "slug": "mesh-gradient",
                     *           "seed": 7
                     *         },
                     *         {
                     *           "id": "badge",
                     *           "kind": "shape",
                     *           "shape": "rectangle",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 56,
                     *             "width": 96,
                     *             "height": 96
                     *           },
                     *           "radius": 24,
                     *           "fill": "#ffffff",
                     *           "opacity": 0.9
                     *         },
                     *         {
                     *           "id": "title",
                     *           "kind": "text",
                     *           "text": "{{title}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 200,
                     *             "width": 1072,
                     *             "height": 300
                     *           },
                     *           "font": {
                     *             "family": "Space Grotesk",
                     *             "weight": 700
                     *           },
                     *           "color": "#ffffff",
                     *           "fit": {
                     *             "max": 96,
                     *             "min": 40,
                     *             "maxLines": 3,
                     *             "overflow": "ellipsis"
                     *           }
                     *         },
                     *         {
                     *           "id": "author",
                     *           "kind": "text",
                     *           "text": "by {{author}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 530,
                     *             "width": 800,
                     *             "height": 48
                     *           },
                     *           "color": "#e2e8f0",
                     *           "fit": {
                     *             "max": 32
                     *           }
                     *         }
                     *       ],
                     *       "createdAt": "2026-11-29T07:10:12.354Z",
                     *       "updatedAt": "2026-11-29T07:31:40.101Z",
                     *       "versions": [
                     *         {
                     *           "version": 1,
                     *           "name": "Blog og:image",
                     *           "createdAt": "2026-11-29T07:10:12.354Z"
                     *         },
                     *         {
                     *           "version": 2,
                     *           "name": "Blog og:image",
                     *           "createdAt": "2026-11-29T07:31:40.101Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Template"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    updateTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateCreate"];
            };
        };
        responses: {
            /** @description The template at its new version. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "tpl_5Zq1xW8yT3nB0cV7mK2r",
                     *       "name": "Blog og:image",
                     *       "version": 2,
                     *       "size": {
                     *         "width": 1200,
                     *         "height": 630
                     *       },
                     *       "variables": {
                     *         "type": "object",
                     *         "required": [
                     *           "title"
                     *         ],
                     *         "properties": {
                     *           "title": {
                     *             "type": "string",
                     *             "maxLength": 200
                     *           },
                     *           "author": {
                     *             "type": "string",
                     *             "default": "The team"
                     *           }
                     *         }
                     *       },
                     *       "layers": [
                     *         {
                     *           "id": "background",
                     *           "kind": "generator",
                     *           "slug": "mesh-gradient",
                     *           "seed": 7
                     *         },
                     *         {
                     *           "id": "badge",
                     *           "kind": "shape",
                     *           "shape": "rectangle",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 56,
                     *             "width": 96,
                     *             "height": 96
                     *           },
                     *           "radius": 24,
                     *           "fill": "#ffffff",
                     *           "opacity": 0.9
                     *         },
                     *         {
                     *           "id": "title",
                     *           "kind": "text",
                     *           "text": "{{title}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 200,
                     *             "width": 1072,
                     *             "height": 300
                     *           },
                     *           "font": {
                     *             "family": "Space Grotesk",
                     *             "weight": 700
                     *           },
                     *           "color": "#ffffff",
                     *           "fit": {
                     *             "max": 96,
                     *             "min": 40,
                     *             "maxLines": 3,
                     *             "overflow": "ellipsis"
                     *           }
                     *         },
                     *         {
                     *           "id": "author",
                     *           "kind": "text",
                     *           "text": "by {{author}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 530,
                     *             "width": 800,
                     *             "height": 48
                     *           },
                     *           "color": "#e2e8f0",
                     *           "fit": {
                     *             "max": 32
                     *           }
                     *         }
                     *       ],
                     *       "createdAt": "2026-11-29T07:10:12.354Z",
                     *       "updatedAt": "2026-11-29T07:31:40.101Z",
                     *       "versions": [
                     *         {
                     *           "version": 1,
                     *           "name": "Blog og:image",
                     *           "createdAt": "2026-11-29T07:10:12.354Z"
                     *         },
                     *         {
                     *           "version": 2,
                     *           "name": "Blog og:image",
                     *           "createdAt": "2026-11-29T07:31:40.101Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `origin_denied`: the `Origin` is not in `ALLOWED_ORIGINS`, or a cookie-authenticated change carries no listed `Origin`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `origin_denied`: the `Origin` is not in `ALLOWED_ORIGINS`, or a cookie-authenticated delete carries no listed `Origin`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getTemplateVersion: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example tpl_5Zq1xW8yT3nB0cV7mK2r */
                id: components["parameters"]["TemplateId"];
                /**
                 * @description The version number, from 1.
                 * @example 1
                 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "templateId": "tpl_5Zq1xW8yT3nB0cV7mK2r",
                     *       "version": 1,
                     *       "name": "Blog og:image",
                     *       "size": {
                     *         "width": 1200,
                     *         "height": 630
                     *       },
                     *       "variables": {
                     *         "type": "object",
                     *         "required": [
                     *           "title"
                     *         ],
                     *         "properties": {
                     *           "title": {
                     *             "type": "string",
                     *             "maxLength": 200
                     *           },
                     *           "author": {
                     *             "type": "string",
                     *             "default": "The team"
                     *           }
                     *         }
                     *       },
                     *       "layers": [
                     *         {
                     *           "id": "background",
                     *           "kind": "generator",
                     *           "slug": "mesh-gradient",
                     *           "seed": 7
                     *         },
                     *         {
                     *           "id": "badge",
                     *           "kind": "shape",
                     *           "shape": "rectangle",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 56,
                     *             "width": 96,
                     *             "height": 96
                     *           },
                     *           "radius": 24,
                     *           "fill": "#ffffff",
                     *           "opacity": 0.9
                     *         },
                     *         {
                     *           "id": "title",
                     *           "kind": "text",
                     *           "text": "{{title}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 200,
                     *             "width": 1072,
                     *             "height": 300
                     *           },
                     *           "font": {
                     *             "family": "Space Grotesk",
                     *             "weight": 700
                     *           },
                     *           "color": "#ffffff",
                     *           "fit": {
                     *             "max": 96,
                     *             "min": 40,
                     *             "maxLines": 3,
                     *             "overflow": "ellipsis"
                     *           }
                     *         },
                     *         {
                     *           "id": "author",
                     *           "kind": "text",
                     *           "text": "by {{author}}",
                     *           "box": {
                     *             "x": 64,
                     *             "y": 530,
                     *             "width": 800,
                     *             "height": 48
                     *           },
                     *           "color": "#e2e8f0",
                     *           "fit": {
                     *             "max": 32
                     *           }
                     *         }
                     *       ],
                     *       "createdAt": "2026-11-29T07:10:12.354Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    previewTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplatePreviewRequest"];
            };
        };
        responses: {
            /** @description The draft, rendered. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Always `0`, a preview is free. */
                    "X-Service-Credits": 0;
                    /**
                     * @description How each text layer was set, in layer order: an RFC 8941 list with one string per text
                     *     layer (its id) and parameters `size` (the font size it was set at, in template pixels:
                     *     a decimal in steps of 0.25), `lines` (how many lines) and `overflow` (present when even
                     *     `fit.min` did not fit and the last line was cut with "…"). Absent when the draft has no
                     *     text layer. Example: `"title";size=84;lines=2, "author";size=34;lines=1;overflow`.
                     */
                    "X-Service-Text-Fit"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `overloaded`: the render queue is full (`RENDER_QUEUE_LIMIT`); `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            /** @description `render_timeout`: the render passed `RENDER_TIMEOUT_MS`. */
            504: components["responses"]["GatewayTimeout"];
            default: components["responses"]["Problem"];
        };
    };
    listUrlSigningKeys: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description URL signing keys of the workspace, newest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "usk_6c2NfJ0kQm3xV8pR4tYw",
                     *         "label": "blog og:images",
                     *         "prefix": "svc_sign_q3H0xv",
                     *         "monthlyCreditLimit": 5000,
                     *         "maxAgeSeconds": 86400,
                     *         "creditsSpentThisMonth": 42,
                     *         "createdAt": "2026-11-27T10:00:00.000Z",
                     *         "lastUsedAt": "2026-11-27T11:30:00.000Z",
                     *         "revoked": false,
                     *         "revokedAt": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["UrlSigningKey"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createUrlSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "label": "blog og:images",
                 *       "monthlyCreditLimit": 5000,
                 *       "maxAgeSeconds": 86400
                 *     }
                 */
                "application/json": components["schemas"]["UrlSigningKeyCreate"];
            };
        };
        responses: {
            /** @description The new key, with its secret. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the key (`DELETE` it to revoke). */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "usk_6c2NfJ0kQm3xV8pR4tYw",
                     *       "label": "blog og:images",
                     *       "prefix": "svc_sign_q3H0xv",
                     *       "monthlyCreditLimit": 5000,
                     *       "maxAgeSeconds": 86400,
                     *       "creditsSpentThisMonth": 0,
                     *       "createdAt": "2026-11-27T10:00:00.000Z",
                     *       "lastUsedAt": null,
                     *       "revoked": false,
                     *       "revokedAt": null,
                     *       "secret": "svc_sign_q3H0xvN2b8yK1mT4rW6zA9cE5gJ7pL0sD3fH8kQ2uV1"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedUrlSigningKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description `key_limit_reached`: the workspace holds 100 active URL signing keys; revoke one first. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    revokeUrlSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
                id: components["parameters"]["UrlSigningKeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "usk_6c2NfJ0kQm3xV8pR4tYw",
                     *       "label": "blog og:images",
                     *       "prefix": "svc_sign_q3H0xv",
                     *       "monthlyCreditLimit": 5000,
                     *       "maxAgeSeconds": 86400,
                     *       "creditsSpentThisMonth": 42,
                     *       "createdAt": "2026-11-27T10:00:00.000Z",
                     *       "lastUsedAt": "2026-11-27T11:30:00.000Z",
                     *       "revoked": true,
                     *       "revokedAt": "2026-11-28T09:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["UrlSigningKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `not_found`: no such key in this workspace (another workspace's key included). */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    listSigningBases: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
                id: components["parameters"]["UrlSigningKeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's bases. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "sb_Vq3k9XzA1bC2dE3f",
                     *         "keyId": "usk_6c2NfJ0kQm3xV8pR4tYw",
                     *         "url": "https://api.example.com/v1/bases/sb_Vq3k9XzA1bC2dE3f/7mVtq0QmPqD3bKq8hY0vQ9yH1Zr5s2W4xT6uJ8kLnOc.png",
                     *         "slug": "social-card@3.0.0",
                     *         "params": {
                     *           "subtitle": "The render service blog"
                     *         },
                     *         "size": {
                     *           "width": 1200,
                     *           "height": 630
                     *         },
                     *         "format": "png",
                     *         "slots": {
                     *           "title": {
                     *             "maxLength": 120
                     *           }
                     *         },
                     *         "expiresAt": null,
                     *         "createdAt": "2026-12-01T10:00:00.000Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["SigningBase"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `not_found`: no such key in this workspace (another workspace's key included). */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    createSigningBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
                id: components["parameters"]["UrlSigningKeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SigningBaseCreate"];
            };
        };
        responses: {
            /** @description The base, with its URL. */
            201: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    /** @description URL of the base (`DELETE` it to retire its URLs). */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sb_Vq3k9XzA1bC2dE3f",
                     *       "keyId": "usk_6c2NfJ0kQm3xV8pR4tYw",
                     *       "url": "https://api.example.com/v1/bases/sb_Vq3k9XzA1bC2dE3f/7mVtq0QmPqD3bKq8hY0vQ9yH1Zr5s2W4xT6uJ8kLnOc.png",
                     *       "slug": "social-card@3.0.0",
                     *       "params": {
                     *         "subtitle": "The render service blog"
                     *       },
                     *       "size": {
                     *         "width": 1200,
                     *         "height": 630
                     *       },
                     *       "format": "png",
                     *       "slots": {
                     *         "title": {
                     *           "maxLength": 120
                     *         }
                     *       },
                     *       "expiresAt": null,
                     *       "createdAt": "2026-12-01T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SigningBase"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `not_found`: no such key in this workspace (another workspace's key included); `generator_not_found`: no generator has this slug; `template_not_found`: no such template in this workspace. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `conflict`: the key is revoked; make the base with an active key. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    deleteSigningBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sb_Vq3k9XzA1bC2dE3f */
                baseId: components["parameters"]["SigningBaseId"];
                /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
                id: components["parameters"]["UrlSigningKeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `not_found`: no such key in this workspace, or no such base of the key. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    signRenderUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example usk_6c2NfJ0kQm3xV8pR4tYw */
                id: components["parameters"]["UrlSigningKeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignRenderUrlRequest"];
            };
        };
        responses: {
            /** @description The signed URL. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://api.example.com/v1/render/d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320.png?r=eyJmb3JtYXQiOiJwbmcifQ&kid=usk_6c2NfJ0kQm3xV8pR4tYw&exp=1790000000&sig=7mVtq0QmPqD3bKq8hY0vQ9yH1Zr5s2W4xT6uJ8kLnOc",
                     *       "expiresAt": "2026-09-21T14:13:20.000Z",
                     *       "recipeHash": "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                     *     }
                     */
                    "application/json": components["schemas"]["SignedRenderUrl"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `not_found`: no such key in this workspace (another workspace's key included); `generator_not_found`: no generator has this slug. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `conflict`: the key is revoked; sign with an active key. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /**
                 * @description First day (UTC), inclusive.
                 * @example 2026-11-01
                 */
                from?: string;
                /**
                 * @description `day` (default) answers as without it; `hour` adds `byHour` (a period of at most 31 days), `month` adds `byMonth`.
                 * @example hour
                 */
                granularity?: "hour" | "day" | "month";
                /**
                 * @description Adds `groups`: the totals per API key, URL signing key, generator or operation.
                 * @example apiKey
                 */
                groupBy?: "apiKey" | "signingKey" | "generator" | "operation";
                /**
                 * @description Last day (UTC), inclusive.
                 * @example 2026-11-23
                 */
                to?: string;
            };
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "2026-11-01",
                     *       "to": "2026-11-23",
                     *       "totals": {
                     *         "renders": 412,
                     *         "credits": 1180,
                     *         "bytes": 96402113,
                     *         "cacheHits": 171
                     *       },
                     *       "byDay": [
                     *         {
                     *           "date": "2026-11-22",
                     *           "renders": 130,
                     *           "credits": 402,
                     *           "bytes": 30118840,
                     *           "cacheHits": 41
                     *         },
                     *         {
                     *           "date": "2026-11-23",
                     *           "renders": 282,
                     *           "credits": 778,
                     *           "bytes": 66283273,
                     *           "cacheHits": 130
                     *         }
                     *       ],
                     *       "byGenerator": [
                     *         {
                     *           "slug": "mesh-gradient",
                     *           "renders": 301,
                     *           "credits": 903,
                     *           "bytes": 13150330,
                     *           "cacheHits": 150
                     *         },
                     *         {
                     *           "slug": "plasma",
                     *           "renders": 111,
                     *           "credits": 277,
                     *           "bytes": 83251783,
                     *           "cacheHits": 21
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UsageSummary"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getBudget: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The budget. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "monthlyCredits": 5000,
                     *       "alertThresholds": [
                     *         50,
                     *         80,
                     *         100
                     *       ],
                     *       "webhookUrl": "https://hooks.example.com/render-service",
                     *       "month": "2026-11",
                     *       "spentThisMonth": 2710,
                     *       "crossed": [
                     *         {
                     *           "threshold": 50,
                     *           "budget": 5000,
                     *           "spent": 2503,
                     *           "crossedAt": "2026-11-21T09:14:03.112Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Budget"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    updateBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BudgetUpdate"];
            };
        };
        responses: {
            /** @description The budget as set. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "monthlyCredits": 5000,
                     *       "alertThresholds": [
                     *         50,
                     *         80,
                     *         100
                     *       ],
                     *       "webhookUrl": "https://hooks.example.com/render-service",
                     *       "month": "2026-11",
                     *       "spentThisMonth": 2710,
                     *       "crossed": [
                     *         {
                     *           "threshold": 50,
                     *           "budget": 5000,
                     *           "spent": 2503,
                     *           "crossedAt": "2026-11-21T09:14:03.112Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Budget"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description ETags from earlier responses (a comma-separated list), or `*`; a match answers 304 Not Modified (weak comparison, RFC 9110 §13.1.2), whatever the request's `Cache-Control`.
                 * @example "d86dc381eb028396d664cf76ec763afa928893203688b67a6ccc3647995e6320"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current signing secret. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    ETag: components["headers"]["ContentETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_9vh+s3SYArQye+GatM7IAwE7RTNRoOdMVFWr9xQXj0Q=",
                     *       "createdAt": "2026-11-23T20:52:12.370Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new signing secret. */
            200: {
                headers: {
                    "Access-Control-Allow-Credentials": components["headers"]["AccessControlAllowCredentials"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    Vary: components["headers"]["Vary"];
                    "X-Content-Type-Options": components["headers"]["ContentTypeOptions"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_K2r7Yq0TbX4mV9sL1pN8cD3fH6jA5wE0zU2iO7gR4kM=",
                     *       "createdAt": "2026-11-23T21:15:09.554Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `not_ready`: the database (or, for stored files, object storage) is unavailable — a restart or failover — or the process is still starting; see `Retry-After`. */
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["Problem"];
        };
    };
}
