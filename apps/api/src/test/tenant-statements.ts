import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/*
 * The static check behind "every statement on a business's table filters by business_id"
 * (docs/decisions/0030-tenant-statements.md). It reads the API's source with the TypeScript
 * parser and reports each statement on a tenant table whose predicate never names that table's
 * business_id. A tenant table is any table of the drizzle schema with a `business_id` column,
 * read from apps/api/src/db/schema, not listed by hand.
 *
 * Two shapes of statement are read:
 *  - drizzle builder chains: `.update(T)`, `.delete(T)`, `.select(…).from(T)` and
 *    `.insert(T)….onConflictDoUpdate(…)`. The last `.where(…)` counts (drizzle replaces an
 *    earlier one). T's business_id must be in the where (or the upsert's target/where), or paired
 *    in a join condition with a joined tenant table whose business_id the where pins. Each joined
 *    tenant table (`.innerJoin(T2, cond)`…) must have its business_id in its condition or in the
 *    where. A chain without a where that a function returns (or a const holds) is followed to the
 *    places that use it.
 *  - SQL text, in `sql` templates and plain template/string literals: each `UPDATE t`, `FROM t`,
 *    `JOIN t` (so `DELETE FROM t`) of a tenant table needs `alias.business_id` in a predicate of
 *    the text, or an unqualified `business_id` in the (sub)query around it. Select lists do not
 *    count (`SELECT business_id FROM t WHERE id = $1` is not scoped).
 * A predicate's identifiers and a template's `${…}` are followed to what they are in the same
 * file: a const's value (with what is pushed onto it), a local helper's returned expression, a
 * table (`${customers}` → customers) or a column (`${customers.businessId}` →
 * customers.business_id). What the file cannot tell (a parameter, an import) counts as nothing,
 * so a statement whose scoping comes from elsewhere is reported, not assumed. A table handed in
 * as a value (`.from(table)` with a parameter) is not read.
 */

export interface Table {
  /** The SQL name. */
  sql: string;
  /** Property name → column SQL name. */
  columns: Map<string, string>;
  tenant: boolean;
}

export interface Finding {
  file: string;
  line: number;
  /** The enclosing function, else the top-level const (`<top>` if neither): with file and table, the allow-list key. */
  fn: string;
  table: string;
  kind: 'update' | 'delete' | 'select' | 'insert' | 'join' | 'sql';
  text: string;
}

const JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin']);

/**
 * The SQL name of a column: the string the innermost call of its builder chain gets
 * (`uuid('business_id').notNull()`), through a local helper (`business()`) when the schema file
 * uses one; otherwise the property name in snake case (drizzle's casing).
 */
function columnName(key: string, e: ts.Expression): string {
  let n: ts.Node = e;
  while (ts.isCallExpression(n)) {
    const [a] = n.arguments;
    if (a && ts.isStringLiteral(a) && ts.isIdentifier(n.expression)) return a.text;
    if (ts.isIdentifier(n.expression)) {
      const d = declarationOf(n.expression.text, n);
      const body = d && valueOf(d);
      if (body && ts.isExpression(body)) return columnName(key, body);
    }
    if (!ts.isPropertyAccessExpression(n.expression)) break;
    n = n.expression.expression;
  }
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The tables of the drizzle schema, by exported name. */
export function schemaTables(sources: { file: string; text: string }[]): Map<string, Table> {
  const tables = new Map<string, Table>();
  for (const { file, text } of sources) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        ts.isCallExpression(n.initializer) &&
        ts.isIdentifier(n.initializer.expression) &&
        n.initializer.expression.text === 'pgTable'
      ) {
        const [name, cols] = n.initializer.arguments;
        if (name && ts.isStringLiteral(name) && cols && ts.isObjectLiteralExpression(cols)) {
          const columns = new Map<string, string>();
          for (const p of cols.properties)
            if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
              columns.set(p.name.text, columnName(p.name.text, p.initializer));
            }
          tables.set(n.name.text, { sql: name.text, columns, tenant: [...columns.values()].includes('business_id') });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return tables;
}

/** The enclosing function's name, else the top-level const's (`<top>` if neither): the allow-list key. */
function enclosingName(n: ts.Node): string {
  let constName: string | undefined;
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if ((ts.isFunctionDeclaration(p) || ts.isMethodDeclaration(p)) && p.name) return p.name.getText();
    if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p)) && ts.isVariableDeclaration(p.parent))
      return p.parent.name.getText();
    if (ts.isVariableDeclaration(p)) constName = p.name.getText();
  }
  return constName ?? '<top>';
}

/** The declaration `name` refers to at `from`, looking outwards through the enclosing scopes. */
function declarationOf(name: string, from: ts.Node): ts.Node | undefined {
  for (let p: ts.Node | undefined = from.parent; p; p = p.parent) {
    if (ts.isFunctionLike(p)) {
      for (const param of p.parameters) if (ts.isIdentifier(param.name) && param.name.text === name) return param;
    }
    const statements = ts.isBlock(p) || ts.isSourceFile(p) || ts.isModuleBlock(p) ? p.statements : undefined;
    if (!statements) continue;
    for (const s of statements) {
      if (ts.isFunctionDeclaration(s) && s.name?.text === name) return s;
      if (ts.isVariableStatement(s))
        for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d;
    }
  }
  return undefined;
}

/** The node whose text stands for what a declaration holds (a const's value, a function's body). */
function valueOf(d: ts.Node): ts.Node | undefined {
  if (ts.isVariableDeclaration(d)) {
    const i = d.initializer;
    if (i && (ts.isArrowFunction(i) || ts.isFunctionExpression(i))) return i.body;
    return i;
  }
  if (ts.isFunctionDeclaration(d)) return d.body;
  return undefined;
}

/** The scope a declaration lives in (for `name.push(…)` and reassignments). */
function scopeOf(d: ts.Node): ts.Node {
  for (let p: ts.Node | undefined = d.parent; p; p = p.parent) if (ts.isBlock(p) || ts.isSourceFile(p)) return p;
  return d.getSourceFile();
}

/** Stands for SQL this file cannot read (`sql.raw(alias)`): it may be any alias. */
const ANY = '_any_';

/** The expressions a function body returns (not those of functions nested in it). */
function returnsOf(body: ts.Node): ts.Node[] {
  if (!ts.isBlock(body)) return [body];
  const out: ts.Node[] = [];
  const visit = (c: ts.Node) => {
    if (ts.isReturnStatement(c) && c.expression) out.push(c.expression);
    if (!ts.isFunctionLike(c)) ts.forEachChild(c, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/** `UPDATE t`, `FROM t a`, `JOIN t AS a`: the table and its alias. */
const TABLE_REFS =
  /\b(UPDATE|FROM|JOIN)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)"?(?:\s+(?:AS\s+)?(?!(?:WHERE|SET|ON|USING|JOIN|LEFT|RIGHT|INNER|FULL|CROSS|GROUP|ORDER|LIMIT|OFFSET|WINDOW|RETURNING|UNION|EXCEPT|INTERSECT|FOR|LATERAL|HAVING)\b)([a-z_][a-z0-9_]*))?/gi;

/**
 * Whether SQL text constrains a table's business_id: `alias.business_id` or `table.business_id`,
 * a `sql.raw` alias that may be it, or (when allowed) an unqualified `business_id`.
 */
function bound(text: string, table: string, alias: string, unqualified: boolean): boolean {
  const q = (a: string) => new RegExp(`(?<![\\w.])"?${a}"?\\."?business_id\\b`, 'i').test(text);
  return q(alias) || q(table) || q(ANY) || (unqualified && /(?<![\w.])"?business_id\b/i.test(text));
}

/** The innermost parenthesized text around `at` (the whole text at the top level). */
function enclosingGroup(text: string, at: number): string {
  let start = 0;
  for (let i = at, depth = 0; i >= 0; i--) {
    if (text[i] === ')') depth++;
    else if (text[i] === '(' && depth-- === 0) {
      start = i;
      break;
    }
  }
  let end = text.length;
  for (let i = at, depth = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && depth-- === 0) {
      end = i;
      break;
    }
  }
  return text.slice(start, end);
}

/** SQL text without its select lists (`SELECT a, b FROM` → `FROM`). */
const predicates = (text: string) => text.replace(/\bSELECT\b[\s\S]*?\bFROM\b/gi, 'FROM');

class FileCheck {
  readonly findings: Finding[] = [];
  /** Local identifier → table (imports from the schema and `alias(T, …)`). */
  readonly locals = new Map<string, Table>();

  constructor(
    readonly sf: ts.SourceFile,
    readonly file: string,
    readonly tables: Map<string, Table>,
  ) {
    for (const s of sf.statements)
      if (
        ts.isImportDeclaration(s) &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        /db\/schema/.test(s.moduleSpecifier.text) &&
        s.importClause?.namedBindings &&
        ts.isNamedImports(s.importClause.namedBindings)
      )
        for (const e of s.importClause.namedBindings.elements) {
          const t = tables.get((e.propertyName ?? e.name).text);
          if (t) this.locals.set(e.name.text, t);
        }
    const visit = (n: ts.Node) => {
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        ts.isCallExpression(n.initializer) &&
        ts.isIdentifier(n.initializer.expression) &&
        n.initializer.expression.text === 'alias'
      ) {
        const [t, a] = n.initializer.arguments;
        const table = t && ts.isIdentifier(t) ? this.locals.get(t.text) : undefined;
        if (table && a && ts.isStringLiteral(a)) this.locals.set(n.name.text, { ...table, sql: a.text });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  tableOf(e: ts.Expression | undefined): Table | undefined {
    return e && ts.isIdentifier(e) ? this.locals.get(e.text) : undefined;
  }

  report(at: ts.Node, table: string, kind: Finding['kind']) {
    const line = this.sf.getLineAndCharacterOfPosition(at.getStart(this.sf)).line + 1;
    const text = at.getText(this.sf).replace(/\s+/g, ' ').slice(0, 120);
    this.findings.push({ file: this.file, line, fn: enclosingName(at), table, kind, text });
  }

  /**
   * The SQL an expression stands for, as far as this file tells: `T` → its table name, `T.col`
   * → `table.column`, a `sql` template → its text, a local const → what it holds (with what is
   * pushed onto it or assigned to it later), a local helper's call → what it returns, any other
   * call (`and`, `eq`, `inArray`…) → its arguments. A value (`${id}`) is `?`.
   */
  sqlOf(e: ts.Node | undefined, seen = new Set<ts.Node>()): string {
    if (!e) return '?';
    const again = (n: ts.Node | undefined) => this.sqlOf(n, seen);
    if (
      ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isAwaitExpression(e) ||
      ts.isSpreadElement(e)
    )
      return again(e.expression);
    if (ts.isIdentifier(e)) {
      const t = this.locals.get(e.text);
      if (t) return t.sql;
      const d = declarationOf(e.text, e);
      if (!d || seen.has(d) || !ts.isVariableDeclaration(d)) return '?';
      seen.add(d);
      return [again(d.initializer), ...this.writesTo(e.text, d).map(again)].join(' ');
    }
    if (ts.isPropertyAccessExpression(e)) {
      const owner = this.tableOf(e.expression);
      return owner ? `${owner.sql}.${owner.columns.get(e.name.text) ?? e.name.text}` : '?';
    }
    if (ts.isTaggedTemplateExpression(e)) return again(e.template);
    if (ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e))
      return e.head.text + e.templateSpans.map((s) => again(s.expression) + s.literal.text).join('');
    if (ts.isCallExpression(e)) {
      const callee = e.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.getText(this.sf) === 'sql.raw') {
        const [a] = e.arguments;
        return a && (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a)) ? a.text : ANY;
      }
      const args = e.arguments.map(again);
      if (ts.isIdentifier(callee)) {
        const d = declarationOf(callee.text, callee);
        const body = d && !seen.has(d) ? valueOf(d) : undefined;
        if (d && body) {
          seen.add(d);
          args.push(...returnsOf(body).map(again));
        }
      } else if (ts.isPropertyAccessExpression(callee) && ts.isCallExpression(callee.expression))
        args.push(again(callee.expression));
      return args.join(' ');
    }
    if (ts.isArrayLiteralExpression(e)) return e.elements.map(again).join(' ');
    if (ts.isConditionalExpression(e)) return `${again(e.whenTrue)} ${again(e.whenFalse)}`;
    if (ts.isBinaryExpression(e)) return `${again(e.left)} ${again(e.right)}`;
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return returnsOf(e.body).map(again).join(' ');
    if (ts.isObjectLiteralExpression(e))
      return e.properties
        .map((p) => (ts.isPropertyAssignment(p) && p.name.getText(this.sf) !== 'set' ? again(p.initializer) : ''))
        .join(' ');
    return '?';
  }

  /** `name.push(a, b)` arguments and `name = x` / `name ||= x` right-hand sides in the declaration's scope. */
  writesTo(name: string, d: ts.Node): ts.Node[] {
    const out: ts.Node[] = [];
    const visit = (c: ts.Node) => {
      if (
        ts.isCallExpression(c) &&
        ts.isPropertyAccessExpression(c.expression) &&
        ['push', 'unshift'].includes(c.expression.name.text) &&
        ts.isIdentifier(c.expression.expression) &&
        c.expression.expression.text === name
      )
        out.push(...c.arguments);
      if (
        ts.isBinaryExpression(c) &&
        c.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        c.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
        ts.isIdentifier(c.left) &&
        c.left.text === name
      )
        out.push(c.right);
      ts.forEachChild(c, visit);
    };
    visit(scopeOf(d));
    return out;
  }

  // ---- drizzle builder chains ----

  /** Where a chain's end goes on: calls of the function that returns it, references of the const that holds it. */
  usesOf(end: ts.Node): ts.Node[] {
    let p = end.parent;
    while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p))) p = p.parent;
    let name: string | undefined;
    let scope: ts.Node | undefined;
    if (p && ts.isReturnStatement(p)) {
      for (let f: ts.Node | undefined = p.parent; f; f = f.parent)
        if (ts.isFunctionLike(f)) {
          if (ts.isFunctionDeclaration(f) && f.name) name = f.name.text;
          else if (ts.isVariableDeclaration(f.parent) && ts.isIdentifier(f.parent.name)) name = f.parent.name.text;
          break;
        }
    } else if (p && ts.isArrowFunction(p) && p.body === end && ts.isVariableDeclaration(p.parent)) {
      name = p.parent.name.getText();
    } else if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) {
      name = p.name.text;
      scope = scopeOf(p);
    }
    if (!name) return [];
    const out: ts.Node[] = [];
    const visit = (c: ts.Node) => {
      if (ts.isIdentifier(c) && c.text === name) {
        const parent = c.parent;
        if (!scope && ts.isCallExpression(parent) && parent.expression === c) out.push(parent);
        if (scope && ts.isPropertyAccessExpression(parent) && parent.expression === c) out.push(c);
      }
      ts.forEachChild(c, visit);
    };
    visit(scope ?? this.sf);
    return out;
  }

  /** Every complete chain from `root` on: the calls after it, one list per way the builder is used. */
  chains(root: ts.CallExpression, depth = 0): ts.CallExpression[][] {
    const calls: ts.CallExpression[] = [];
    let n: ts.Node = root;
    while (
      ts.isPropertyAccessExpression(n.parent) &&
      n.parent.expression === n &&
      ts.isCallExpression(n.parent.parent) &&
      n.parent.parent.expression === n.parent
    ) {
      calls.push(n.parent.parent);
      n = n.parent.parent;
    }
    const uses = depth < 3 ? this.usesOf(n) : [];
    if (!uses.length) return [calls];
    return uses.flatMap((u) => this.chains(u as ts.CallExpression, depth + 1).map((rest) => [...calls, ...rest]));
  }

  /** The calls before `call` in its chain (`a.select().from(T)` → select). */
  chainBefore(call: ts.CallExpression): ts.CallExpression[] {
    const out: ts.CallExpression[] = [];
    let e: ts.Expression = call.expression;
    while (ts.isPropertyAccessExpression(e) && ts.isCallExpression(e.expression)) {
      out.push(e.expression);
      e = e.expression.expression;
    }
    return out;
  }

  checkChain(root: ts.CallExpression, kind: Finding['kind'], table: ts.Identifier) {
    for (const chain of this.chains(root)) {
      const name = (c: ts.CallExpression) => (c.expression as ts.PropertyAccessExpression).name.text;
      const wheres = chain.filter((c) => name(c) === 'where');
      const joins = chain.filter((c) => JOINS.has(name(c)));
      const conflicts = chain.filter((c) => name(c) === 'onConflictDoUpdate');
      if (kind === 'insert' && !conflicts.length) continue;
      const where = this.sqlOf(wheres.at(-1)?.arguments[0]);
      const on = new Map(joins.map((j) => [j, this.sqlOf(j.arguments[1])]));
      const conflict = conflicts.map((c) => this.sqlOf(c.arguments[0])).join(' ');
      const main = this.locals.get(table.text)!;
      // The statement's own table: its business_id in the where (or the upsert's target/where),
      // or paired in a join condition with a joined table whose business_id the where pins.
      const mainBound =
        bound(`${where} ${conflict}`, main.sql, main.sql, true) ||
        joins.some((j) => {
          const jt = this.tableOf(j.arguments[0]);
          return (
            jt?.tenant &&
            bound(on.get(j)!, main.sql, main.sql, false) &&
            bound(on.get(j)!, jt.sql, jt.sql, false) &&
            bound(where, jt.sql, jt.sql, false)
          );
        });
      if (main.tenant && !mainBound) this.report(root, main.sql, kind);
      // A joined tenant table: its business_id in its join condition or in the where.
      for (const j of joins) {
        const jt = this.tableOf(j.arguments[0]);
        if (jt?.tenant && !bound(`${on.get(j)} ${where}`, jt.sql, jt.sql, false)) this.report(j, jt.sql, 'join');
      }
    }
  }

  checkCall(c: ts.CallExpression) {
    if (!ts.isPropertyAccessExpression(c.expression)) return;
    const method = c.expression.name.text;
    const [arg] = c.arguments;
    const t = this.tableOf(arg);
    if (!t || !arg || !ts.isIdentifier(arg)) return;
    if (method === 'from') {
      const select = this.chainBefore(c).some((b) =>
        /^select/.test((b.expression as ts.PropertyAccessExpression).name.text),
      );
      // A select from a table of no business still has its joins to tenant tables checked.
      if (select) this.checkChain(c, 'select', arg);
    } else if (t.tenant && (method === 'update' || method === 'delete' || method === 'insert'))
      this.checkChain(c, method, arg);
  }

  checkText(n: ts.StringLiteral | ts.TemplateLiteral) {
    const text = ts.isStringLiteral(n) ? n.text : this.sqlOf(n);
    for (const m of text.matchAll(TABLE_REFS)) {
      const [, , name, alias] = m;
      const table = [...this.tables.values()].find((t) => t.tenant && t.sql === name);
      if (!table) continue;
      // `alias.business_id` anywhere; an unqualified business_id only in the ref's own (sub)query.
      // Select lists do not count: `SELECT business_id FROM t WHERE id = $1` is not scoped.
      const own = predicates(enclosingGroup(text, m.index));
      if (!bound(predicates(text), name!, alias ?? name!, false) && !bound(own, name!, alias ?? name!, true))
        this.report(n, table.sql, 'sql');
    }
  }

  run() {
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) this.checkCall(n);
      if (
        ts.isTemplateExpression(n) ||
        ts.isNoSubstitutionTemplateLiteral(n) ||
        (ts.isStringLiteral(n) && !ts.isImportDeclaration(n.parent))
      ) {
        // Only the outermost template: an inner one is rendered inside it.
        let inner = false;
        for (let p = n.parent; p; p = p.parent) if (ts.isTemplateSpan(p)) inner = true;
        if (!inner && /\b(UPDATE|FROM|JOIN)\s/i.test(n.getText(this.sf))) this.checkText(n as ts.StringLiteral);
      }
      ts.forEachChild(n, visit);
    };
    visit(this.sf);
    return this.findings;
  }
}

/** The findings of one source text. */
export function checkSource(file: string, text: string, tables: Map<string, Table>): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return new FileCheck(sf, file, tables).run();
}

/** `INSERT INTO t`, `UPDATE t`, `DELETE FROM t`, `FROM t`, `JOIN t`: every tenant table SQL text names. */
const TEXT_TABLES = /\b(?:INSERT\s+INTO|UPDATE|FROM|JOIN)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * Where a source text touches a tenant table at all, scoped or not (decision 0044): each value use
 * of a tenant table imported from the schema (or an alias of one) — a drizzle statement or a
 * predicate on its columns — and each tenant table named by SQL text. Type positions (`typeof
 * customers.$inferSelect`) do not count. A converted module's services and routes have none: their
 * statements live in its `*.queries.ts`.
 */
export function tenantUses(file: string, text: string, tables: Map<string, Table>): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const check = new FileCheck(sf, file, tables);
  const out: Finding[] = [];
  const seen = new Set<string>();
  const add = (at: ts.Node, table: string, kind: Finding['kind']) => {
    const line = sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1;
    const key = `${line} ${table}`;
    if (seen.has(key)) return;
    seen.add(key);
    const t = at.getText(sf).replace(/\s+/g, ' ').slice(0, 120);
    out.push({ file, line, fn: enclosingName(at), table, kind, text: t });
  };
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) || ts.isTypeQueryNode(n) || ts.isTypeReferenceNode(n)) return;
    if (ts.isIdentifier(n)) {
      const t = check.locals.get(n.text);
      const p = n.parent;
      const declared = ts.isVariableDeclaration(p) && p.name === n;
      const member = ts.isPropertyAccessExpression(p) && p.name === n;
      const key = (ts.isPropertyAssignment(p) || ts.isBindingElement(p)) && p.name === n;
      if (t?.tenant && !declared && !member && !key) add(n, t.sql, 'sql');
    }
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      const raw = ts.isTemplateExpression(n)
        ? [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ? ')
        : n.text;
      for (const m of raw.matchAll(TEXT_TABLES)) {
        const t = [...tables.values()].find((x) => x.tenant && x.sql === m[1]);
        if (t) add(n, t.sql, 'sql');
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * The exported functions of a queries file whose first parameter is not `businessId` (decision
 * 0044: every function of the data layer takes the business first).
 */
export function exportsWithoutBusinessFirst(file: string, text: string): { file: string; fn: string; line: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { file: string; fn: string; line: number }[] = [];
  const exported = (n: ts.Node) =>
    ts.canHaveModifiers(n) && !!ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const check = (name: string, f: ts.SignatureDeclaration, at: ts.Node) => {
    const first = f.parameters[0]?.name;
    if (!first || !ts.isIdentifier(first) || first.text !== 'businessId')
      out.push({ file, fn: name, line: sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1 });
  };
  for (const s of sf.statements) {
    if (!exported(s)) continue;
    if (ts.isFunctionDeclaration(s) && s.name) check(s.name.text, s, s);
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) {
        const i = d.initializer;
        if (i && (ts.isArrowFunction(i) || ts.isFunctionExpression(i))) check(d.name.getText(sf), i, d);
      }
  }
  return out;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (name.endsWith('.ts')) yield p;
  }
}

/** The API's statement source: not tests, test helpers, migrations, the schema itself or the fake ARCA. */
export const SKIPPED = [
  /\.test\.ts$/,
  /^test\//,
  /^db\/migrations\//,
  /^db\/schema\//,
  /^modules\/facturacion\/fake\//,
];

export function readTables(srcDir: string): Map<string, Table> {
  const dir = path.join(srcDir, 'db/schema');
  return schemaTables([...files(dir)].map((f) => ({ file: f, text: readFileSync(f, 'utf8') })));
}

/** Every finding under apps/api/src, with paths relative to it. */
export function checkTree(srcDir: string): { findings: Finding[]; files: number; tables: Map<string, Table> } {
  const tables = readTables(srcDir);
  const findings: Finding[] = [];
  let n = 0;
  for (const f of files(srcDir)) {
    const rel = path.relative(srcDir, f).split(path.sep).join('/');
    if (SKIPPED.some((r) => r.test(rel))) continue;
    n++;
    findings.push(...checkSource(rel, readFileSync(f, 'utf8'), tables));
  }
  return { findings, files: n, tables };
}
