import type { FieldRef, FieldType, Filter, PathSegment, Scalar, SortKey } from '../../../contracts/index.ts';
import { castValue, isCast } from '../../../contracts/index.ts';
import { jsonTestSql, pathText } from './sqliteViewJsonFilter.ts';
import { quoteId, toColumn, type TableInfo } from './sqliteViewTable.ts';

/** Collects named parameters (`@p0`, `@p1`, ...) so that one fragment may be used twice in a statement. */
export type Params = Record<string, string | number | null>;

const OPERATORS = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

type Kind = 'text' | 'number' | 'boolean';

/** JSON path for SQLite: property names as JSON strings (`$."a.b"`), indexes in brackets (`[0]`). */
export function jsonPath(path: readonly PathSegment[]): string {
  return `$${pathText(path)}`;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Builds WHERE / ORDER BY / SET fragments of one statement; every value becomes a named parameter. A class rather
 * than a closure factory: the projection hot path builds one per view change, and tsx (esbuild keepNames) would
 * otherwise define a dozen named inner functions on every call.
 */
export class SqlBuilder {
  readonly params: Params = {};
  readonly #info: TableInfo;
  #count = 0;
  #aliases = 0;

  constructor(info: TableInfo) {
    this.#info = info;
  }

  param(value: string | number | boolean | null): string {
    const name = `p${this.#count++}`;
    this.params[name] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    return `@${name}`;
  }

  #source(ref: FieldRef): { type: FieldType; column: string; path: string | null } {
    const info = this.#info;
    const type = info.types.get(ref.field);
    if (type === undefined) throw new Error(`${info.collection}: unknown field "${ref.field}"`);
    if (ref.cast !== undefined && !isCast(ref.cast)) throw new Error(`unknown cast "${String(ref.cast)}"`);
    const column = quoteId(ref.field);
    if (type !== 'json') {
      if (ref.path !== undefined && ref.path.length > 0) throw new Error(`${info.collection}.${ref.field} is not json`);
      return { type, column, path: null };
    }
    // Paths (and casts, below) are literals, not parameters: an expression index (ensureIndex) only serves a query
    // whose expression has the same text.
    return { type, column, path: sqlString(jsonPath(ref.path ?? [])) };
  }

  #isJson(ref: FieldRef): boolean {
    return this.#info.types.get(ref.field) === 'json';
  }

  /** The ref's value when it has `kind` (no cast), else NULL; null when the column can never have that kind. */
  #typed(ref: FieldRef, kind: Kind): string | null {
    const s = this.#source(ref);
    if (s.path === null) {
      const columnKind: Kind = s.type === 'text' ? 'text' : s.type === 'boolean' ? 'boolean' : 'number';
      return columnKind === kind ? s.column : null;
    }
    const jt = `json_type(${s.column}, ${s.path})`;
    const value = `json_extract(${s.column}, ${s.path})`;
    if (kind === 'text') return `(CASE WHEN ${jt} = 'text' THEN ${value} END)`;
    if (kind === 'number') return `(CASE WHEN ${jt} IN ('integer', 'real') THEN ${value} END)`;
    return `(CASE ${jt} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
  }

  /** The ref's value after its cast (NULL when uncastable), or the raw value without a cast. */
  #expr(ref: FieldRef): string {
    const s = this.#source(ref);
    const value = s.path === null ? s.column : `json_extract(${s.column}, ${s.path})`;
    if (ref.cast === undefined) return value;
    // Plain columns pass their storage type (a fixed word, never input); json values their json_type().
    const type = s.path === null ? `'${s.type}'` : `json_type(${s.column}, ${s.path})`;
    return `strata_cast(${sqlString(ref.cast)}, ${value}, ${type})`;
  }

  /** SQL that is true when the ref holds a value (not null, not missing, castable), or the opposite. */
  #present(ref: FieldRef, negate = false): string {
    if (ref.cast !== undefined) return `(${this.#expr(ref)} IS ${negate ? '' : 'NOT '}NULL)`;
    const s = this.#source(ref);
    if (s.path === null) return `(${s.column} IS ${negate ? '' : 'NOT '}NULL)`;
    return `(COALESCE(json_type(${s.column}, ${s.path}), 'null') ${negate ? '=' : '<>'} 'null')`;
  }

  #compare(ref: FieldRef, op: keyof typeof OPERATORS, value: Scalar): string {
    if (value === null) return '0';
    if (ref.cast !== undefined) {
      const cast = castValue(ref.cast, value);
      return cast === null ? '0' : `(${this.#expr(ref)} ${OPERATORS[op]} ${this.param(cast)})`;
    }
    const e = this.#typed(ref, kindOf(value));
    // `ne` matches any present value that is not equal, including values of another type.
    if (op === 'ne') {
      if (e === null) return this.#present(ref);
      if (!this.#isJson(ref)) return `(${e} <> ${this.param(value)})`;
      return `(${this.#present(ref)} AND (${e} IS NULL OR ${e} <> ${this.param(value)}))`;
    }
    return e === null ? '0' : `(${e} ${OPERATORS[op]} ${this.param(value)})`;
  }

  #within(ref: FieldRef, values: readonly Scalar[]): string {
    if (ref.cast !== undefined) {
      const cast = ref.cast;
      const casts = values.flatMap((v) => (v === null ? [] : [castValue(cast, v)])).filter((v) => v !== null);
      return casts.length === 0 ? '0' : `(${this.#expr(ref)} IN (${casts.map((v) => this.param(v)).join(', ')}))`;
    }
    const parts: string[] = [];
    for (const kind of ['text', 'number', 'boolean'] as const) {
      const matching = values.filter((v) => v !== null && kindOf(v) === kind);
      const e = matching.length === 0 ? null : this.#typed(ref, kind);
      if (e !== null) parts.push(`${e} IN (${matching.map((v) => this.param(v)).join(', ')})`);
    }
    return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
  }

  /** Field -> parameter of the converted `set` values; undeclared fields are ignored, as in documents. */
  assign(set: Readonly<Record<string, unknown>> | undefined): Map<string, string> {
    const info = this.#info;
    const out = new Map<string, string>();
    for (const [name, value] of Object.entries(set ?? {})) {
      const type = info.types.get(name);
      if (type !== undefined) out.set(name, this.param(toColumn(info, name, type, value)));
    }
    return out;
  }

  /**
   * SQL NULL from a comparison with a missing value counts as false everywhere; only NOT must turn it into
   * true, hence `IS NOT TRUE`.
   */
  where(filter: Filter): string {
    switch (filter.kind) {
      case 'all':
        return '1';
      case 'and':
        return filter.filters.length === 0 ? '1' : `(${filter.filters.map((f) => this.where(f)).join(' AND ')})`;
      case 'or':
        return filter.filters.length === 0 ? '0' : `(${filter.filters.map((f) => this.where(f)).join(' OR ')})`;
      case 'not':
        return `(${this.where(filter.filter)} IS NOT TRUE)`;
      case 'compare':
        if (!Object.hasOwn(OPERATORS, filter.op)) throw new Error(`unknown operator "${String(filter.op)}"`);
        return this.#compare(filter.ref, filter.op, filter.value);
      case 'in':
        return this.#within(filter.ref, filter.values);
      case 'isNull':
        return this.#present(filter.ref, true);
      case 'json': {
        const type = this.#info.types.get(filter.field);
        if (type === undefined) throw new Error(`${this.#info.collection}: unknown field "${filter.field}"`);
        return jsonTestSql(
          quoteId(filter.field),
          type,
          filter.path,
          filter.test,
          (value) => this.param(value),
          () => `w${this.#aliases++}`,
        );
      }
      default: {
        const unknownFilter: never = filter;
        throw new Error(`unknown filter kind ${JSON.stringify(unknownFilter)}`);
      }
    }
  }

  /** Key columns are NOT NULL: without a NULLS clause SQLite can read their order from an index in any position. */
  #isNotNull(ref: FieldRef): boolean {
    return ref.cast === undefined && (ref.path === undefined || ref.path.length === 0) && this.#info.key.includes(ref.field);
  }

  /**
   * Sort terms and index columns of one key. Nulls and uncastable values go last in both directions: SQLite puts
   * NULL first on ASC, so ASC keys say `NULLS LAST`, which an index serves on the first key only; later ASC keys
   * sort on `IS NULL` first instead (NOT NULL key columns need neither).
   */
  #sortTerms(k: SortKey, first: boolean): { order: string; index: string } {
    if (k.direction !== 'asc' && k.direction !== 'desc') throw new Error(`bad sort direction "${String(k.direction)}"`);
    const e = this.#expr(k.ref);
    if (k.direction === 'desc') return { order: `${e} DESC`, index: `${e} DESC` };
    if (this.#isNotNull(k.ref)) return { order: `${e} ASC`, index: e };
    if (first) return { order: `${e} ASC NULLS LAST`, index: e };
    return { order: `(${e}) IS NULL, ${e} ASC`, index: `(${e}) IS NULL, ${e}` };
  }

  orderBy(keys: readonly SortKey[]): string {
    return keys.map((k, i) => this.#sortTerms(k, i === 0).order).join(', ');
  }

  /**
   * The order of `keys` for a compound SELECT, whose ORDER BY may only name result columns: `columns` are the sort
   * values as extra result columns `__s0`, `__s1`, ... (each arm selects them), `order` sorts by them exactly as
   * `orderBy(keys)` sorts, so that SQLite orders each arm by the same index.
   */
  compoundOrder(keys: readonly SortKey[]): { readonly columns: string[]; readonly order: string } {
    const columns: string[] = [];
    const order: string[] = [];
    const column = (expr: string, direction: string): void => {
      const alias = `"__s${columns.length}"`;
      columns.push(`${expr} AS ${alias}`);
      order.push(direction === '' ? alias : `${alias} ${direction}`);
    };
    keys.forEach((k, i) => {
      if (k.direction !== 'asc' && k.direction !== 'desc') throw new Error(`bad sort direction "${String(k.direction)}"`);
      const e = this.#expr(k.ref);
      if (k.direction === 'desc') column(e, 'DESC');
      else if (this.#isNotNull(k.ref)) column(e, 'ASC');
      else if (i === 0) column(e, 'ASC NULLS LAST');
      else {
        column(`(${e}) IS NULL`, '');
        column(e, 'ASC');
      }
    });
    return { columns, order: order.join(', ') };
  }

  /** Index columns: the equality fields, then exactly what `orderBy(sort)` sorts by. */
  /**
   * The columns of an index: the equality fields, the sort terms, then the included fields (SortIndex.include) not
   * already there; an included json value adds its `json_type`, which the json tests of filters read with it.
   */
  indexColumns(equal: readonly string[], sort: readonly SortKey[], include: readonly FieldRef[] = []): string {
    const columns = [...equal.map((field) => this.#expr({ field })), ...sort.map((k, i) => this.#sortTerms(k, i === 0).index)];
    for (const ref of include) {
      const s = this.#source(ref);
      const terms = [this.#expr(ref)];
      if (ref.cast === undefined && s.path !== null) terms.push(`json_type(${s.column}, ${s.path})`);
      for (const term of terms) if (!columns.includes(term)) columns.push(term);
    }
    return columns.join(', ');
  }
}

export function createSqlBuilder(info: TableInfo): SqlBuilder {
  return new SqlBuilder(info);
}

function kindOf(value: string | number | boolean): Kind {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  return 'boolean';
}
