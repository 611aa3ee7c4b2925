// The target of a COMMENT ON (and of ALTER … OWNER TO, DEPENDS ON EXTENSION) as the catalog
// query spells it ("COLUMN", "app.t.c"), and the object a comment on it belongs to.
import { strings, typeFromNode, type Node } from '../sql/pg-parse.js';
import { castTypeName } from './cast-name.js';
import { quoteIdent } from '../sql/quote.js';
import {
  castRef,
  collationRef,
  indexRef,
  relationRef,
  routineRef,
  sequenceRef,
  statisticsRef,
  typeRef,
  publicationRef,
  subscriptionRef,
  serverRef,
} from '../model/object-ref.js';
import { listName } from './statement-parts.js';
import { transformName } from './server-code.js';

const COMMENT_TARGETS: Readonly<Record<string, string>> = {
  OBJECT_TABLE: 'TABLE',
  OBJECT_VIEW: 'VIEW',
  OBJECT_MATVIEW: 'MATERIALIZED VIEW',
  OBJECT_SEQUENCE: 'SEQUENCE',
  OBJECT_COLUMN: 'COLUMN',
  OBJECT_INDEX: 'INDEX',
  OBJECT_FUNCTION: 'FUNCTION',
  OBJECT_PROCEDURE: 'PROCEDURE',
  OBJECT_AGGREGATE: 'AGGREGATE',
  OBJECT_RULE: 'RULE',
  OBJECT_TYPE: 'TYPE',
  OBJECT_DOMAIN: 'DOMAIN',
  OBJECT_SCHEMA: 'SCHEMA',
  OBJECT_TABCONSTRAINT: 'CONSTRAINT',
  OBJECT_TRIGGER: 'TRIGGER',
  OBJECT_POLICY: 'POLICY',
  OBJECT_EXTENSION: 'EXTENSION',
  OBJECT_STATISTIC_EXT: 'STATISTICS',
  OBJECT_COLLATION: 'COLLATION',
  OBJECT_PUBLICATION: 'PUBLICATION',
  OBJECT_SUBSCRIPTION: 'SUBSCRIPTION',
  OBJECT_FOREIGN_SERVER: 'SERVER',
  OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE',
  OBJECT_CAST: 'CAST',
  OBJECT_CONVERSION: 'CONVERSION',
  OBJECT_TSDICTIONARY: 'TEXT SEARCH DICTIONARY',
  OBJECT_TSCONFIGURATION: 'TEXT SEARCH CONFIGURATION',
  OBJECT_TSPARSER: 'TEXT SEARCH PARSER',
  OBJECT_TSTEMPLATE: 'TEXT SEARCH TEMPLATE',
  OBJECT_OPCLASS: 'OPERATOR CLASS',
  OBJECT_OPFAMILY: 'OPERATOR FAMILY',
  OBJECT_OPERATOR: 'OPERATOR',
  OBJECT_ACCESS_METHOD: 'ACCESS METHOD',
  OBJECT_FDW: 'FOREIGN DATA WRAPPER',
  OBJECT_LANGUAGE: 'LANGUAGE',
  OBJECT_EVENT_TRIGGER: 'EVENT TRIGGER',
  OBJECT_TRANSFORM: 'TRANSFORM',
};

/** An operator named with its argument types (ALTER / COMMENT ON OPERATOR's ObjectWithArgs), as the catalog names it. */
export function operatorTarget(owa: Node, defaultSchema: string): string {
  const names = strings(owa.objname);
  const [left, right] = owa.objargs ?? [];
  return operatorName(names.length > 1 ? names[0]! : defaultSchema, names[names.length - 1]!, left, right);
}

/**
 * An operator as DROP OPERATOR and the catalog name it ("public.~~(anynonarray, text)"): its
 * argument types (TypeName nodes) as the catalog prints them with search_path = public, no
 * modifiers, a type of public unqualified, NONE for a prefix operator's left side.
 */
export function operatorName(schema: string, symbol: string, left: Node | undefined, right: Node | undefined): string {
  const type = (t: Node | undefined): string =>
    t?.TypeName ? typeFromNode(t.TypeName).base.replace(/^public\./, '') : 'NONE';
  return `${quoteIdent(schema)}.${symbol}(${type(left)}, ${type(right)})`;
}

/** Targets named by a qualified name, and the object a comment on one belongs to. */
const LISTED: Readonly<Record<string, (n: string) => string>> = {
  SEQUENCE: sequenceRef,
  STATISTICS: statisticsRef,
  COLLATION: collationRef,
  CONVERSION: (n) => `conversion ${n}`,
  'TEXT SEARCH DICTIONARY': (n) => `text search dictionary ${n}`,
  'TEXT SEARCH PARSER': (n) => `text search parser ${n}`,
  'TEXT SEARCH TEMPLATE': (n) => `text search template ${n}`,
  'TEXT SEARCH CONFIGURATION': (n) => `text search configuration ${n}`,
};

/** The target of a COMMENT as the catalog query spells it ("COLUMN", "app.t.c"), and what it belongs to. */
export function commentTarget(
  c: Node,
  defaultSchema: string,
  argTypes: (n: Node) => string,
): { keyword: string; target: string; parent?: string; needs?: string[] } | string {
  // A domain's constraint goes with its domain (`positive ON DOMAIN app.posint`).
  if (c.objtype === 'OBJECT_DOMCONSTRAINT') {
    const [type, name] = c.object.List.items as Node[];
    const domain = listName(strings(type!.TypeName.names), defaultSchema);
    return {
      keyword: 'CONSTRAINT',
      target: `${quoteIdent(name!.String.sval)} ON DOMAIN ${domain}`,
      parent: typeRef(domain),
    };
  }
  const keyword = COMMENT_TARGETS[c.objtype];
  if (!keyword) return `COMMENT ON ${String(c.objtype).replace(/^OBJECT_/, '')} is not managed here`;
  const obj = c.object;
  const items = obj?.List ? strings(obj.List.items) : obj?.String ? [obj.String.sval] : [];
  const listed = LISTED[keyword];
  if (listed) {
    const n = listName(items, defaultSchema);
    return { keyword, target: n, parent: listed(n) };
  }
  switch (keyword) {
    case 'SCHEMA':
    case 'EXTENSION':
      return { keyword, target: quoteIdent(items[0]!) };
    // Objects of no schema, each its own parent (`language plperl`).
    case 'ACCESS METHOD':
    case 'FOREIGN DATA WRAPPER':
    case 'LANGUAGE':
    case 'EVENT TRIGGER':
      return { keyword, target: quoteIdent(items[0]!), parent: `${keyword.toLowerCase()} ${quoteIdent(items[0]!)}` };
    case 'TRANSFORM': {
      const [type, lang] = obj.List.items as Node[];
      const n = transformName(type!.TypeName, lang!.String.sval, defaultSchema);
      return { keyword, target: n.replace(/^for (.*) language /, 'FOR $1 LANGUAGE '), parent: `transform ${n}` };
    }
    case 'OPERATOR CLASS':
    case 'OPERATOR FAMILY': {
      // The parser puts the method first: [method, schema, name].
      const target = `${listName(items.slice(1), defaultSchema)} USING ${quoteIdent(items[0]!)}`;
      return { keyword, target, parent: `${keyword.toLowerCase()} ${target}` };
    }
    case 'COLUMN': {
      const col = items[items.length - 1]!;
      const table = listName(items.slice(0, -1), defaultSchema);
      return { keyword, target: `${table}.${quoteIdent(col)}`, parent: relationRef(table) };
    }
    case 'CONSTRAINT':
    case 'TRIGGER':
    case 'RULE':
    case 'POLICY': {
      const own = items[items.length - 1]!;
      const table = listName(items.slice(0, -1), defaultSchema);
      // It comes after the constraint, trigger, rule or policy it is on (diff/object-order.ts).
      const on = `${keyword === 'CONSTRAINT' ? 'constraint' : keyword.toLowerCase()} ${table}.${quoteIdent(own)}`;
      return { keyword, target: `${quoteIdent(own)} ON ${table}`, parent: relationRef(table), needs: [on] };
    }
    case 'INDEX': {
      const n = listName(items, defaultSchema);
      return { keyword, target: n, parent: indexRef(n) };
    }
    case 'FUNCTION':
    case 'PROCEDURE':
    case 'AGGREGATE': {
      const owa = obj.ObjectWithArgs;
      const n = listName(strings(owa.objname), defaultSchema);
      // An aggregate of * (COMMENT ON AGGREGATE a(*)) has no argument types.
      const args = keyword === 'AGGREGATE' && (owa.objargs ?? []).length === 0 ? '*' : argTypes(owa);
      return { keyword, target: `${n}(${args})`, parent: routineRef(n) };
    }
    case 'TYPE':
    case 'DOMAIN': {
      const n = listName(strings(obj.TypeName.names), defaultSchema);
      return { keyword, target: n, parent: typeRef(n) };
    }
    case 'OPERATOR': {
      const target = operatorTarget(obj.ObjectWithArgs, defaultSchema);
      return { keyword, target, parent: `operator ${target}` };
    }
    case 'SERVER':
      return { keyword, target: quoteIdent(items[0]!), parent: serverRef(quoteIdent(items[0]!)) };
    case 'PUBLICATION':
      return { keyword, target: quoteIdent(items[0]!), parent: publicationRef(quoteIdent(items[0]!)) };
    case 'SUBSCRIPTION':
      return { keyword, target: quoteIdent(items[0]!), parent: subscriptionRef(quoteIdent(items[0]!)) };
    case 'CAST': {
      const [from, to] = (obj?.List?.items ?? []).map((t: Node) => castTypeName(t.TypeName, defaultSchema));
      const n = `(${from} AS ${to})`;
      return { keyword, target: n, parent: castRef(n) };
    }
    default: {
      const n = listName(items, defaultSchema);
      return { keyword, target: n, parent: relationRef(n) };
    }
  }
}
