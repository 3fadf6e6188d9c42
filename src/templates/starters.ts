// The starter templates that ship with the service: the files of starters/, each a body
// POST /v1/templates takes as it is (GET /v1/template-starters lists them for the web app's New…).
import { readFileSync } from 'node:fs';
import type { components } from '../../codegen/openapi.ts';
import { packagePath } from '../lib/package-root.ts';

export type TemplateStarter = components['schemas']['TemplateStarter'];

/** In the order a person meets them: the most asked-for first. The files hold no description, so it is here. */
const STARTERS: ReadonlyArray<{ id: string; description: string }> = [
  {
    id: 'blog-og-image',
    description:
      "A blog post's link preview (1200×630): your logo, a category, the title fitted on up to three lines, the author's photo and name.",
  },
  {
    id: 'product-announcement',
    description: 'A launch card (1200×630): a pill, a headline, a description and a link beside the product shown whole on a soft halo.',
  },
  { id: 'avatar-initials', description: 'An avatar (256×256): one to three initials on a gradient that the initials choose.' },
  { id: 'event-banner', description: 'An animated event banner (1500×500): the event, its date and place over a moving background.' },
];

let loaded: TemplateStarter[] | undefined;

/** The starters, read once (they change only with a release). */
export function templateStarters(): TemplateStarter[] {
  loaded ??= STARTERS.map(({ id, description }) => {
    const template = JSON.parse(readFileSync(packagePath('starters', `${id}.json`), 'utf8')) as TemplateStarter['template'];
    return { id, name: template.name, description, template };
  });
  return loaded;
}
