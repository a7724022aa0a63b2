import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The product speaks Argentine Spanish with "vos" (docs/decisions/0007-voseo.md): screens, API
 * messages, e-mails, the landing and legal pages and the partials they are built from. This test
 * reads every text a user can see (string literals, template texts and JSX text of the sources;
 * the text and the visible attributes of the HTML pages) and fails on a "tú" form.
 *
 * Many "tú" forms are also Spanish nouns or third persons ("compras", "prueba", "ingresa"), so a
 * form is flagged only where it can only be the second person:
 * - forms that exist only with "tú" (puedes, tienes, eliges, regístrate, tú...);
 * - an ambiguous present ("compras", "invitas") after a clitic pronoun that makes it a verb ("le
 *   compras", "te cobras") or after "si" / "vos no" ("si bloqueas");
 * - an ambiguous imperative ("ingresa", "elige", "ten") where a sentence or a label starts: there
 *   the third person does not read as a description, the imperative does (voseo: "ingresá").
 * Subjunctives that voseo shares with "tú" ("que no uses", "cuando quieras") and futures
 * ("podrás") are not flagged: Rioplatense Spanish uses them too.
 */

/*
 * The present of "tú" ends in -as (-ar verbs) or -es (-er, -ir verbs) without an accent; voseo
 * stresses the ending ("comprás", "vendés", "escribís"). The subjunctives Rioplatense Spanish
 * shares with "tú" have the other vowel ("que uses", "que vendas"), so these forms are the present.
 */
const AR_VERBS =
  'acept agreg ajust activ administr anot anul apunt arrastr asign avis baj borr busc calcul cambi cancel carg cobr complet compr confirm configur contact control copi cre cuid dej desactiv descarg elimin enseñ entr esper export factur firm gan gestion guard import ingres inici intent invit bloque llam llev mand manej marc mir necesit not olvid orden organiz pag peg registr rest revis seleccion escane sospech sum termin tom toc trabaj us visit cuid arm ahorr'
    .split(' ')
    .map((s) => `${s}as`);
const ER_IR_VERBS =
  'vend deb sab escrib recib decid abr sub imprim emit compart viv permit pertenec ofrec conoc parec aparec respond añad introduc produc tra pon corrig exig cumpl ocurr exist le hac dic'
    .split(' ')
    .map((s) => `${s}es`);
/** Stem-changing and irregular presents, and "tú" itself. */
const IRREGULAR =
  'tú eres tienes puedes quieres prefieres sigues pides eliges vuelves devuelves pierdes entiendes resuelves mueves vienes conviertes sientes cierras empiezas comienzas piensas recuerdas encuentras muestras apruebas pruebas cuentas sueltas envías'.split(
    ' ',
  );
/** Enclitic imperatives of "tú" (voseo: "registrate", "pedíselo", "elegilo"). */
const ENCLITIC =
  'pídeselo pídele escríbenos regístrate elígelo elígela desactívalo anúlalas cancélala avísanos contáctanos corrígelas corrígelo súmalo asígnalos márcalos pruébalo súbela súbelo cárgalos cárgalo compártele compártelo inténtalo revísalo revísala ingrésalo selecciónalo verifícalo descárgalo hazlo ponlo dime'.split(
    ' ',
  );
/** Those forms that are also nouns or adjectives ("las compras", "cuentas activas"): verbs only after a word that makes them one. */
const ALSO_NOUNS = new Set(
  'compras cuentas pruebas cargas notas marcas firmas llamas esperas tomas copias bajas restas sumas muestras pagas cobras ganas tocas facturas visitas activas sales ventas has anotas mandas sueltas'.split(
    ' ',
  ),
);

const words = (list: string[]) => list.join('|');
const PRESENT_ONLY_TU = [...AR_VERBS, ...ER_IR_VERBS, ...IRREGULAR, ...ENCLITIC].filter((w) => !ALSO_NOUNS.has(w));
const ONLY_TU = new RegExp(String.raw`(?<!\p{L})(${words(PRESENT_ONLY_TU)})(?!\p{L})`, 'iu');
const CLITIC_PRESENT = new RegExp(
  String.raw`(?<!\p{L})(?:te|le|les|me|nos|se|lo|la|si|que|vos|no|ya|también|después|luego|cuando|dónde|quién)\s+(${words([...ALSO_NOUNS])})(?!\p{L})`,
  'iu',
);

/** Imperatives that are also third persons ("ingresa"): flagged where a sentence or label starts. */
const IMPERATIVES = [
  'elige',
  'escoge',
  'ingresa',
  'introduce',
  'selecciona',
  'escribe',
  'revisa',
  'intenta',
  'vuelve',
  'contacta',
  'comienza',
  'empieza',
  'agrega',
  'añade',
  'confirma',
  'descarga',
  'sube',
  'prueba',
  'pide',
  'recuerda',
  'verifica',
  'toca',
  'haz',
  'pon',
  'ten',
  'mira',
  'asigna',
  'invita',
  'acepta',
  'cancela',
  'elimina',
  'borra',
  'recarga',
  'configura',
  'corrige',
  'llena',
  'consulta',
  'avisa',
  'lee',
  'envía',
];
const SENTENCE_IMPERATIVE = new RegExp(
  String.raw`(?:^|[.!?¡¿:;•·—(\n]\s*|\s-\s)(?:por favor,?\s+)?(${IMPERATIVES.join('|')})(?:\s+(?:tu|tus|el|la|los|las|un|una|a|en|con|al|otra|nuevamente|aquí|acá)(?!\p{L})|[.,!:)])`,
  'iu',
);
/** A label made of the imperative alone ("Selecciona"); not those that are also adjectives or nouns ("Activa"). */
const IMPERATIVES_ALONE = [
  'elige',
  'escoge',
  'ingresa',
  'introduce',
  'selecciona',
  'escribe',
  'revisa',
  'intenta',
  'contacta',
  'agrega',
  'añade',
  'confirma',
  'elimina',
  'cancela',
  'acepta',
  'recarga',
  'configura',
  'corrige',
  'envía',
  'invita',
  'asigna',
];
const LONE_IMPERATIVE = new RegExp(String.raw`^\s*(${IMPERATIVES_ALONE.join('|')})\s*[.!]?\s*$`, 'iu');
/** "Por favor elige…" and "para continuar, ingresa…" inside a sentence read as imperatives too. */
const PLEASE_IMPERATIVE = new RegExp(String.raw`por favor,?\s+(${IMPERATIVES.join('|')})(?!\p{L})`, 'iu');

/** The "tú" form in a user-visible text, or null. */
function tuForm(text: string): string | null {
  for (const re of [ONLY_TU, CLITIC_PRESENT, SENTENCE_IMPERATIVE, LONE_IMPERATIVE, PLEASE_IMPERATIVE]) {
    const m = re.exec(text);
    if (m) return m[1] ?? m[0];
  }
  return null;
}

/** The texts of a TypeScript/TSX source: string literals, template parts and JSX text. */
function codeTexts(file: string, source: string): string[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    // Module names are not texts.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) out.push(node.text);
    else if (ts.isJsxText(node)) out.push(node.text.replace(/\s+/g, ' '));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out.map((t) => t.trim()).filter((t) => /\p{L}/u.test(t));
}

const VISIBLE_ATTRS = /\s(?:content|title|alt|placeholder|aria-label|aria-description|value|description)="([^"]*)"/g;

/** The texts of an HTML page or partial: its text nodes and the attributes a user sees or hears. */
function htmlTexts(html: string): string[] {
  const clean = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)[\s\S]*?<\/\1>/g, '');
  const attrs = [...clean.matchAll(VISIBLE_ATTRS)].map((m) => m[1]!);
  // Inline elements do not end a sentence; block tags do.
  const text = clean
    .replace(/<\/?(?:strong|em|a|span|b|i|code|abbr|small)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, '\u0000')
    .split('\u0000')
    .map((t) => t.replace(/\s+/g, ' ').trim());
  return [...attrs, ...text].filter((t) => /\p{L}/u.test(t));
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCES = ['apps/web/src', 'apps/api/src', 'packages/shared/src'];
const PAGES = ['index.html', 'politicas.html', 'terminos.html', 'cookies.html', 'app.html'].map((f) => `apps/web/${f}`);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|html)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

function scan(): { files: number; texts: number; found: string[] } {
  const all = [...SOURCES.flatMap((d) => [...files(path.join(root, d))]), ...PAGES.map((p) => path.join(root, p))];
  const found: string[] = [];
  let texts = 0;
  for (const f of all) {
    const source = readFileSync(f, 'utf8');
    const list = f.endsWith('.html') ? htmlTexts(source) : codeTexts(f, source);
    texts += list.length;
    for (const t of list) {
      const form = tuForm(t);
      if (form) found.push(`${path.relative(root, f)}: «${form}» in «${t.slice(0, 120)}»`);
    }
  }
  return { files: all.length, texts, found };
}

describe('voseo', () => {
  it('no screen, message, e-mail, page or partial speaks with tú', () => {
    const { files: n, texts, found } = scan();
    // The scan reads the whole product: the app, the API, the shared package and the pages.
    expect(n).toBeGreaterThan(300);
    expect(texts).toBeGreaterThan(5000);
    expect(found).toEqual([]);
  });

  it('reads the partials of the landing and legal pages and JSX text', () => {
    const partials = [...files(path.join(root, 'apps/web/src/landing/partials'))];
    expect(partials.some((p) => p.endsWith('skip-link.html'))).toBe(true);
    expect(
      htmlTexts(
        readFileSync(
          partials.find((p) => p.endsWith('skip-link.html'))!,
          'utf8',
        ),
      ),
    ).toContain('Saltar al contenido');
    expect(htmlTexts('<p>Si bloqueas <strong>todo</strong>, nada.</p><!-- Ten en cuenta -->')).toEqual([
      'Si bloqueas todo, nada.',
    ]);
    expect(htmlTexts('<a aria-label="Elige un plan" href="#">x</a>')).toContain('Elige un plan');
    const code = codeTexts(
      'x.tsx',
      'import a from \'puedes\';\n// Ingresa el dato\nconst x = <p title="Elegí">\n  Ingresa tu e-mail\n</p>;\nconst y = `Hola ${a} tienes`;',
    );
    expect(code).toEqual(['Elegí', 'Ingresa tu e-mail', 'Hola', 'tienes']);
  });

  it('flags the tú forms it is meant to catch', () => {
    for (const text of [
      'No tienes permisos para acceder a esta página',
      '¿Estás seguro de que quieres eliminar este movimiento?',
      'Por favor selecciona un negocio antes de continuar',
      'A quién le compras, cómo contactarlo y cuánto le debés.',
      'Ten en cuenta que si bloqueas el almacenamiento local, no vas a poder iniciar sesión.',
      'Las personas que invitas a un negocio ven la información.',
      'Elige un plan',
      'Ingresa tu e-mail',
      'Revisa el archivo e intenta nuevamente.',
      'Puedes importar productos desde Excel.',
      'Regístrate gratis',
      'Si no tienes cuenta, créala.',
      'Decides con datos',
      'La persona recibe un enlace; después apruebas su acceso y sus permisos.',
      'Vuelve a intentarlo',
      'Si no tienes cuenta, créala.',
      'Las ventas que facturas salen en el libro.',
      'Selecciona',
      'Hoja vacía. Agrega una fila de títulos.',
      'Tú decidís',
    ]) {
      expect(tuForm(text), text).not.toBeNull();
    }
  });

  it('lets voseo, nouns, third persons and shared subjunctives pass', () => {
    for (const text of [
      'No tenés permisos: pedíselo a un administrador.',
      'A quién le comprás, cómo contactarlo y cuánto le debés.',
      'Podés revocar tu consentimiento en cualquier momento.',
      'Tené en cuenta que si bloqueás el almacenamiento local, no vas a poder iniciar sesión.',
      'Elegí un plan',
      'Ingresá tu e-mail',
      'Probá gratis 14 días',
      '14 días de prueba gratis, sin tarjeta.',
      '3. Prueba gratis y modo solo lectura',
      'Activa',
      'Prueba',
      'Completa',
      '¿Olvidaste tu contraseña?',
      'Paga con ($)',
      'Suma el stock y actualiza el costo de cada producto.',
      'Ve:',
      'Actualiza',
      'Facturas emitidas',
      'Cuentas activas',
      'Las visitas del mes',
      'Después apruebás su acceso y sus permisos.',
      'SELECT di.costo FROM devolucion_items di',
      'Órdenes de compra',
      'Las compras y las ventas del mes',
      'Cuentas por cobrar',
      'Sueldos y cargas sociales.',
      'Tu cuenta',
      'Configurá tu negocio',
      'El cliente ingresa dinero a la caja y la venta se registra.',
      'Cuando quieras, que no uses esa tarjeta.',
      'Vas a poder exportar cuando tengas ventas.',
      'Estás en la prueba gratis',
      'Ingreso de caja',
      'Carga masiva de productos',
      'Prueba de conexión con ARCA',
      'Ventas con tarjeta',
    ]) {
      expect(tuForm(text), text).toBeNull();
    }
  });
});
