import { defineHandler, sendJson } from '../src/http/handler.types.ts';
import { CREDIT_PACKS, PRICING_RULES, PIXELS_PER_CREDIT } from '../src/services/pricing.ts';

export default defineHandler('getPricing', (ctx) => {
  sendJson(
    ctx,
    200,
    {
      unit: `One credit renders ${PIXELS_PER_CREDIT.toLocaleString('en-US')} output pixels (or pixel-frames for animations); every cache miss costs at least one.`,
      rules: PRICING_RULES.map((r) => ({ ...r })),
      packs: CREDIT_PACKS.map((p) => ({ ...p })),
    },
    { 'Cache-Control': 'public, max-age=300' },
  );
});
