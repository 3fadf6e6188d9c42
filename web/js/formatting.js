// Numbers and dates as the pages print them. No DOM (unit-tested in Node: test/unit/web-jobs.test.ts).

/** A date-time string in the reader's locale; '—' for none, the text itself when it is not a date. */
export function formatDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** A file's size: "512 B", "1.5 KB", "2.0 MB". */
export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** An amount in minor units (cents) as money in the reader's locale. */
export const money = (amount, currency, locale) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount / 100);

/** A quote's price (POST /v1/quote) beside Download and Export: "3 credits", or free when the file was rendered before. */
export const priceText = ({ credits, cached }) => (cached ? 'rendered before: free' : `${credits} credit${credits === 1 ? '' : 's'}`);
