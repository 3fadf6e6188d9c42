// The live preview's loop, shared by every page that draws a recipe as it is edited (the playground,
// the template editor): each request first shows a quick picture when it has one (fewer pixels), then
// the sharp one; a newer request aborts the one before it (the service stops that render), and an
// answer to an older request is never shown over a newer one. No DOM: the page gives `render` (a
// request and an AbortSignal to the rendered file) and draws what `onPicture` hands it
// (unit-tested in Node: test/unit/web-preview-loop.test.ts).

/**
 * @param {{
 *   render: (request: unknown, signal: AbortSignal) => Promise<unknown>,
 *   onPicture: (out: unknown, request: unknown, how: { quick: boolean }) => unknown,
 *   onError: (err: Error, request: unknown) => unknown,
 * }} hooks
 */
export function createPreviewLoop({ render, onPicture, onError }) {
  let controller;
  let seq = 0;
  return {
    /**
     * Shows `request` (and `quick` first, when given and it arrives before the sharp one). Resolves
     * true once its picture or its error was handed over while it was still the newest request, false
     * when a newer one took its place (its answer then dropped).
     */
    async request(request, quick) {
      const mine = ++seq;
      controller?.abort();
      controller = new AbortController();
      const { signal } = controller;
      let sharp = false;
      if (quick)
        render(quick, signal).then(
          (out) => mine === seq && !sharp && onPicture(out, quick, { quick: true }),
          () => {}, // the sharp render reports any error
        );
      try {
        const out = await render(request, signal);
        sharp = true;
        if (mine !== seq) return false;
        await onPicture(out, request, { quick: false });
      } catch (err) {
        sharp = true;
        if (mine !== seq || err?.name === 'AbortError') return false;
        await onError(err, request);
      }
      return mine === seq;
    },
    /** Drops the request in flight (a page left): it is aborted and its answer never shown. */
    stop() {
      seq++;
      controller?.abort();
    },
    /** How many requests were made: 0 before the first. */
    get requests() {
      return seq;
    },
  };
}
