/*
 * How the POS search ranks what it finds (issue 33, decision 0050), the same on the server
 * (GET /products?orden=relevancia) and in the catalogue kept on the device:
 *   0. the exact code or barcode typed;
 *   1. products holding every token typed: words anywhere in the name, code or barcode; numbers
 *      and sizes as whole tokens (`2"` is not the `2"` of `1 1/2"`, `8` is not the 8 of a barcode
 *      nor `6 mm`, `4` is not `14` nor `20 L`);
 *   2. the rest of what the search found.
 * Enter adds the first result only when it ranks 0 or 1.
 *
 * A number token's test is a regular expression that JavaScript and PostgreSQL read alike (the
 * API sends it as a parameter of `~`), so both sides agree on every product.
 */

/** Lower case, without accents, typographic inch marks as `"`: what the products' `busqueda` holds. */
export function foldSearch(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u201c\u201d\u2033\u02ba]/g, '"');
}

export interface SearchToken {
  text: string;
  /** A number or size (`8`, `2"`, `1/2"`, `2,25`): it must match a whole token. */
  numeric: boolean;
  /** Numbers: numberPattern, compiled once per search. */
  pattern?: RegExp;
}

/** At most this many tokens count (the search itself takes at most 8 words). */
const MAX_TOKENS = 8;

/** A number with its decimals or fraction and an optional inch mark, or a run of letters. */
const TOKEN = /[0-9]+(?:[.,/][0-9]+)*"?|\p{L}+/gu;

/** The tokens of what was typed: "Tarugo Fischer 8mm" → tarugo, fischer, 8, mm. */
export function searchTokens(q: string): SearchToken[] {
  const out: SearchToken[] = [];
  for (const m of foldSearch(q).matchAll(TOKEN)) {
    const text = m[0];
    if (out.some((t) => t.text === text)) continue;
    const numeric = /^[0-9]/.test(text);
    out.push(numeric ? { text, numeric, pattern: new RegExp(numberPattern(text)) } : { text, numeric });
    if (out.length === MAX_TOKENS) break;
  }
  return out;
}

/**
 * The pattern a number token must match in the folded text: not inside a longer number (no digit,
 * nor digit and separator, before it), and not followed by more of a number (a digit, a separator
 * and a digit). `2` also matches `2"`; `2"` only `2"`; a decimal comma or point match either.
 */
export function numberPattern(token: string): string {
  const body = token.replace(/[.,]/g, '[.,]');
  const after = token.endsWith('"') ? '' : '(?![0-9]|[.,/][0-9])';
  return `(?<![0-9])(?<![0-9][.,/])${body}${after}`;
}

/** Whether a folded text holds the token (a word anywhere, a number as a whole token). */
export function holdsToken(folded: string, t: SearchToken): boolean {
  if (!t.numeric) return folded.includes(t.text);
  return (t.pattern ?? new RegExp(numberPattern(t.text))).test(folded);
}

export interface Searchable {
  nombre: string;
  codigo: string | null;
  codigo_barras: string | null;
}

/** The product's exact code (any case) or barcode. */
export function isExactCode(item: Searchable, typed: string): boolean {
  const c = typed.trim();
  if (!c) return false;
  return item.codigo_barras === c || (item.codigo !== null && item.codigo.toLowerCase() === c.toLowerCase());
}

/** The text a search looks in, as the products' `busqueda` column holds it. */
export const searchText = (item: Searchable) =>
  foldSearch(`${item.nombre} ${item.codigo ?? ''} ${item.codigo_barras ?? ''}`);

export type SearchRank = 0 | 1 | 2;

/** 0 exact code, 1 every token, 2 the rest; `folded` saves folding the item again. */
export function searchRank(item: Searchable, typed: string, tokens = searchTokens(typed), folded?: string): SearchRank {
  if (isExactCode(item, typed)) return 0;
  if (!tokens.length) return 2;
  const text = folded ?? searchText(item);
  return tokens.every((t) => holdsToken(text, t)) ? 1 : 2;
}

/** Items in rank order, keeping the given order (by name) within a rank. */
export function rankBySearch<T extends Searchable>(items: T[], typed: string): T[] {
  const tokens = searchTokens(typed);
  return items
    .map((item, n) => ({ item, n, r: searchRank(item, typed, tokens) }))
    .sort((a, b) => a.r - b.r || a.n - b.n)
    .map((x) => x.item);
}
