// Credit packs sold through Stripe Checkout (hosted mode): both Stripe secrets, or billing is off.
import { secureUrl } from './addresses.ts';
import type { EnvReader } from './env-reader.ts';

export interface BillingConfig {
  /** Credit packs through Stripe (hosted mode); null when not configured. */
  readonly billing: {
    readonly stripeSecretKey: string;
    readonly stripeWebhookSecret: string;
    readonly stripeApiUrl: string | undefined;
    readonly successUrl: string;
    readonly cancelUrl: string;
  } | null;
}

/** Where a checkout returns the buyer when CHECKOUT_SUCCESS_URL / CHECKOUT_CANCEL_URL are not set: the account page. */
export function defaultCheckoutUrls(appOrigin: string): { successUrl: string; cancelUrl: string } {
  return { successUrl: `${appOrigin}/#/account?checkout=success`, cancelUrl: `${appOrigin}/#/account?checkout=cancelled` };
}

export function parseBilling(
  { str, problems }: EnvReader,
  { localMode, appOrigin }: { localMode: boolean; appOrigin: string },
): BillingConfig {
  const stripeSecretKey = str('STRIPE_SECRET_KEY');
  const stripeWebhookSecret = str('STRIPE_WEBHOOK_SECRET');
  if ((stripeSecretKey === undefined) !== (stripeWebhookSecret === undefined))
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_/.test(stripeSecretKey))
    problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_…)');
  if (stripeWebhookSecret !== undefined && !stripeWebhookSecret.startsWith('whsec_'))
    problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const stripeApiUrlRaw = str('STRIPE_API_URL');
  const billing =
    stripeSecretKey !== undefined && stripeWebhookSecret !== undefined && !localMode
      ? {
          stripeSecretKey,
          stripeWebhookSecret,
          stripeApiUrl: stripeApiUrlRaw !== undefined ? secureUrl('STRIPE_API_URL', stripeApiUrlRaw, problems) : undefined,
          successUrl: str('CHECKOUT_SUCCESS_URL') ?? defaultCheckoutUrls(appOrigin).successUrl,
          cancelUrl: str('CHECKOUT_CANCEL_URL') ?? defaultCheckoutUrls(appOrigin).cancelUrl,
        }
      : null;
  return { billing };
}
