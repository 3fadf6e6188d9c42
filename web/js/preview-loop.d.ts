// Types of preview-loop.js for the tests that import it (the web app itself is plain JS).
export interface PreviewLoop<Req> {
  request(request: Req, quick?: Req | null): Promise<boolean>;
  stop(): void;
  readonly requests: number;
}
export function createPreviewLoop<Req, Out>(hooks: {
  render: (request: Req, signal: AbortSignal) => Promise<Out>;
  onPicture: (out: Out, request: Req, how: { quick: boolean }) => unknown;
  onError: (err: Error, request: Req) => unknown;
}): PreviewLoop<Req>;
