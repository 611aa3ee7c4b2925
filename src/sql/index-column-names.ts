// The column names PostgreSQL gives an index's columns, from its CREATE INDEX (ChooseIndexColumnNames
// and FigureColnameInternal in src/backend): a column's name; an expression's function, cast type,
// `coalesce`, `case`…, else `expr`; a name already used gets a number (`expr1`). The name PostgreSQL
// chooses for the index is made of them (model/key-names.ts). Pure, on the parse tree.
import { nodeTag, strings, tryParseStatements, type Node } from './pg-parse.js';
import { clipName as clip } from './quote.js';

const last = (list: Node[] | undefined): string | undefined => strings(list).at(-1) || undefined;

/** FigureColnameInternal: a name and its strength (2: a column's, 1: a fallback, 0: none). */
function figure(node: Node): [string | undefined, number] {
  const [tag, v] = nodeTag(node);
  switch (tag) {
    case 'ColumnRef': {
      const name = last(v.fields);
      return name === undefined ? [undefined, 0] : [name, 2];
    }
    case 'A_Indirection': {
      const name = last(v.indirection);
      return name === undefined ? figure(v.arg) : [name, 2];
    }
    case 'FuncCall':
      return [last(v.funcname), 2];
    case 'A_Expr':
      return v.kind === 'AEXPR_NULLIF' ? ['nullif', 2] : [undefined, 0];
    case 'TypeCast': {
      const [name, strength] = figure(v.arg);
      return strength <= 1 ? [last(v.typeName?.names), 1] : [name, strength];
    }
    case 'CollateClause':
      return figure(v.arg);
    case 'GroupingFunc':
      return ['grouping', 2];
    case 'CaseExpr': {
      const [name, strength] = v.defresult ? figure(v.defresult) : [undefined, 0];
      return strength <= 1 ? ['case', 1] : [name, strength];
    }
    case 'A_ArrayExpr':
      return ['array', 2];
    case 'RowExpr':
      return ['row', 2];
    case 'CoalesceExpr':
      return ['coalesce', 2];
    case 'MinMaxExpr':
      return [v.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
    default:
      return [undefined, 0];
  }
}

/**
 * The index's column names (its INCLUDE columns' too) from `CREATE INDEX` text, or undefined when
 * it is not one statement of that kind.
 */
export function indexColumnNames(createIndex: string): string[] | undefined {
  const stmts = tryParseStatements(createIndex);
  if (stmts?.length !== 1) return undefined;
  const [tag, stmt] = nodeTag(stmts[0].stmt);
  if (tag !== 'IndexStmt') return undefined;
  const out: string[] = [];
  for (const p of [...(stmt.indexParams ?? []), ...(stmt.indexIncludingParams ?? [])]) {
    const e = p.IndexElem ?? {};
    const orig: string = e.indexcolname ?? e.name ?? (e.expr ? figure(e.expr)[0] : undefined) ?? 'expr';
    let name = orig;
    for (let i = 1; out.includes(name); i++) name = `${clip(orig, 63 - String(i).length)}${i}`;
    out.push(name);
  }
  return out;
}
