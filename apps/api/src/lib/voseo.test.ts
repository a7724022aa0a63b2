import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The product speaks Argentine Spanish with "vos" (docs/decisions/0007-voseo.md): UI, API
 * messages, e-mails, landing and legal pages. These are forms that only "tú" uses; a line that
 * needs one of these words for another reason does not exist today.
 */
const TU_FORMS =
  /(?<![\p{L}])(puedes|tienes|quieres|debes|necesitas|eres|sabes|pides|vendes|usas|eliges|trabajas|visitas|eliminas|registras|sigues|subes|inicias|cierras|creas|aceptas|perteneces|sospechas|elige|pídeselo|pídele|escríbenos|regístrate|elígelo|desactívalo|anúlalas|cancélala|avísanos|contáctanos|corrígelas|súmalo|asígnalos|márcalos|pruébalo|súbela|cárgalos|compártele|ingresa tu|selecciona un|recarga la|intenta nuevamente|intenta de nuevo|revisa tu|tú)(?![\p{L}])/iu;

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCES = ['apps/web/src', 'apps/api/src', 'packages/shared/src'];
const PAGES = ['index.html', 'politicas.html', 'terminos.html', 'cookies.html', 'app.html'].map((f) => `apps/web/${f}`);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|html)$/.test(name) && !/\.test\.tsx?$/.test(name)) yield p;
  }
}

describe('voseo', () => {
  it('no screen, message, e-mail or page speaks with tú', () => {
    const found: string[] = [];
    const all = [...SOURCES.flatMap((d) => [...files(path.join(root, d))]), ...PAGES.map((p) => path.join(root, p))];
    expect(all.length).toBeGreaterThan(100);
    for (const f of all) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = TU_FORMS.exec(line);
          if (m) found.push(`${path.relative(root, f)}:${i + 1}: «${m[1]}» ${line.trim().slice(0, 100)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('catches the forms it looks for', () => {
    expect(TU_FORMS.test('No tienes permisos para acceder a esta página')).toBe(true);
    expect(TU_FORMS.test('¿Estás seguro de que quieres eliminar este movimiento?')).toBe(true);
    expect(TU_FORMS.test('Por favor selecciona un negocio')).toBe(true);
    expect(TU_FORMS.test('No tenés permisos: pedíselo a un administrador.')).toBe(false);
    expect(TU_FORMS.test('Sueldos y cargas sociales.')).toBe(false);
  });
});
