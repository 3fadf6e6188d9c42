// Golden recipes for social-card text in every script its bundled fonts cover (issues 30, 39): one
// 600×315 png per script, bidi case and emoji style, so a change of font, shaping, bidi or line
// breaking shows as drift.
// test/integration/text-fonts.test.ts renders the same samples with the machine's fonts hidden
// and with extra fonts added, and expects the same bytes.
import socialCard from '../../src/generators/social-card/social-card.generator.ts';
import type { GoldenCase } from './golden-case.ts';

export interface TextSample {
  script: string;
  title: string;
  subtitle: string;
  label?: string;
  /** Other params of the card (direction, emoji). */
  params?: Record<string, unknown>;
}

export const TEXT_SAMPLES: readonly TextSample[] = [
  {
    script: 'latin',
    title: 'Typography for everyone',
    subtitle: 'Ünïcödé — “quotes” & ligatures fi fl, naïve café',
    label: 'Ελληνικά · Русский',
  },
  { script: 'vietnamese', title: 'Tiếng Việt có dấu', subtitle: 'Chữ đẹp trên mọi máy, cùng một kết quả.' },
  { script: 'greek', title: 'Καλημέρα κόσμε', subtitle: 'Ίδια συνταγή, ίδια bytes σε κάθε μηχάνημα.', label: 'Ελληνικά πλάι' },
  { script: 'cyrillic', title: 'Привет, мир', subtitle: 'Съешь же ещё этих мягких французских булок, да выпей чаю.' },
  { script: 'arabic', title: 'مرحبا بالعالم', subtitle: 'نفس الوصفة، نفس البايتات على كل جهاز — 2024', label: 'عربي' },
  { script: 'hebrew', title: 'שלום עולם', subtitle: 'אותו מתכון, אותם בתים בכל מחשב.' },
  // A right-to-left title mirrors the card; the Latin subtitle keeps its own direction.
  { script: 'rtl-title-latin-subtitle', title: 'שלום עולם', subtitle: 'Launch week: v2.0 ships today (finally)!' },
  // One paragraph of mixed directions, numbers and brackets.
  { script: 'mixed', title: 'Release 2.0 (שלום) is here', subtitle: 'العربية and English, 3 × 4 = 12, [עברית]!', label: 'mixed · מעורב' },
  { script: 'devanagari', title: 'नमस्ते दुनिया', subtitle: 'क्षत्रिय श्रृंखला द्वितीय — हर मशीन पर वही बाइट्स।' },
  { script: 'thai', title: 'สวัสดีชาวโลก การเรนเดอร์ที่แน่นอน', subtitle: 'สูตรเดียวกัน ไบต์เดียวกัน บนทุกเครื่อง' },
  { script: 'chinese', title: '你好，世界！确定性渲染服务', subtitle: '同一个配方，在每台机器上都得到同样的字节。' },
  { script: 'japanese', title: '決定論的なレンダリングサービスへようこそ', subtitle: '同じレシピから、どのマシンでも同じバイトを。' },
  { script: 'korean', title: '안녕하세요, 세계', subtitle: '같은 레시피, 모든 기계에서 같은 바이트.' },
  { script: 'emoji', title: 'Ship it 🚀 I ❤️ it', subtitle: 'Thumbs 👍 👍🏻 👍🏽 👍🏿 · text heart ❤ · keycap #️⃣ 1️⃣' },
  { script: 'emoji-sequences', title: 'Family 👨‍👩‍👧 🧑🏽‍🚀', subtitle: 'Flags 🇫🇷 🇯🇵 🏳️‍🌈 🏴‍☠️ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 · couple 👩🏻‍❤️‍👨🏾' },
  { script: 'emoji-monochrome', title: 'Ship it 🚀 I ❤️ it', subtitle: 'Flags 🇫🇷 🏳️‍🌈 · 👍🏽', params: { emoji: 'monochrome' } },
  {
    script: 'breaks',
    title: 'Forced break\nDonaudampfschifffahrtsgesellschaftskapitänsmütze',
    subtitle: 'A subtitle\nwith a second line, and an unbreakable Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz',
  },
];

/** One png case per sample, at a size where the text is legible. */
export function textGoldenCases(): GoldenCase[] {
  return TEXT_SAMPLES.map((s) => ({
    id: `social-card@${socialCard.version}.text-${s.script}.png`,
    slug: 'social-card',
    input: {
      seed: 42,
      size: { width: 600, height: 315, pixelRatio: 1 },
      format: 'png' as const,
      params: { title: s.title, subtitle: s.subtitle, ...(s.label !== undefined ? { label: s.label } : {}), ...s.params },
    },
  }));
}
