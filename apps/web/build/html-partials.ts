import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Replaces every include marker, also those inside partials (a partial may include another). A
 * marker may give values (`<!-- @include legal-page-top title="Términos" -->`) that fill the
 * partial's `{{title}}`; a placeholder left without a value is an error.
 */
export function include(html: string, dir: string, depth = 0): string {
  if (depth > 5) throw new Error('Parciales anidados demasiado hondo');
  return html.replace(/<!-- @include ([a-z-]+)((?:\s+[a-z]+="[^"]*")*) -->/g, (_, part: string, attrs: string) => {
    const values = new Map([...attrs.matchAll(/([a-z]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const text = readFileSync(join(dir, `${part}.html`), 'utf8')
      .trimEnd()
      .replace(/\{\{([a-z]+)\}\}/g, (_m, key: string) => {
        const v = values.get(key);
        if (v === undefined) throw new Error(`El parcial ${part} necesita ${key}`);
        return v;
      });
    return include(text, dir, depth + 1);
  });
}

/**
 * The landing and legal pages share their header, brand, footer and skip link from one template at
 * build time: `<!-- @include footer -->` is replaced by `src/landing/partials/footer.html`, and
 * in it `data-current="/terminos"` becomes `aria-current="page"` on the page it names. The pages
 * stay static HTML (docs/decisions/0001-static-landing.md).
 */
export function htmlPartials(dir: string): Plugin {
  return {
    name: 'mostrador-html-partials',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        const name = basename(ctx.filename, '.html');
        const page = name === 'index' ? '/' : `/${name}`;
        return include(html, dir).replace(/data-current="([^"]+)"/g, (_, href: string) =>
          href === page ? 'aria-current="page"' : '',
        );
      },
    },
  };
}
