// Random histories for the merge laws (mergeLaws.ts): the writes a user makes on either branch's draft (rows:
// create, update of nested fields and arrays, rename, delete; tables: create, rename, delete; schema patches: add,
// remove, rename a field), commits and merges in both directions. Writes become the draft operations the write API
// would append; a write whose target is missing or whose id is taken is skipped, like a refused request.
import fc from 'fast-check';
import type { DraftOperation } from '../commands/draftChanges.ts';
import type { MergeStrategy } from '../merge/mergeTypes.ts';
import { clone, defaultOf, type Content, type Data } from './mergeContent.ts';

type Side = 0 | 1;
type Pick = { readonly branch: Side; readonly table: number };
export type HistoryOp =
  | (Pick & { kind: 'leaf'; row: number; field: (typeof LEAVES)[number]; value: number })
  | (Pick & { kind: 'append'; row: number; value: number })
  | (Pick & { kind: 'createRow'; id: string; value: number })
  | (Pick & { kind: 'renameRow'; row: number; id: string })
  | (Pick & { kind: 'deleteRow'; row: number })
  | { kind: 'createTable'; branch: Side; id: string; value: number }
  | (Pick & { kind: 'renameTable'; id: string })
  | (Pick & { kind: 'deleteTable' })
  | (Pick & { kind: 'addField'; field: string })
  | (Pick & { kind: 'removeField'; field: string })
  | (Pick & { kind: 'renameField'; field: string; to: string })
  | { kind: 'commit'; branch: Side }
  | { kind: 'merge'; into: Side; strategy: MergeStrategy | 'PICK'; picks: boolean[] };

/** Leaves a write sets (`b/c`: nested); `e` and `x` exist once a schema patch adds or renames a field to them. */
const LEAVES = ['a', 'b/c', 'b/d', 'e', 'x'] as const;
const ROW_IDS = ['r0', 'r1', 'r2', 'n0', 'n1', 'n2'];
const TABLE_IDS = ['t', 'u', 'v', 'w'];
const small = fc.integer({ min: 0, max: 3 });

export const TABLE_SCHEMA: Data = {
  type: 'object',
  properties: {
    a: { type: 'integer', default: 0 },
    b: { type: 'object', properties: { c: { type: 'integer', default: 0 }, d: { type: 'integer', default: 0 } } },
    tags: { type: 'array', items: { type: 'integer' } },
  },
};
const FIELD_NODE = { type: 'integer', default: 0 };

const dataArb: fc.Arbitrary<Data> = fc.record({
  a: small,
  b: fc.record({ c: small, d: small }),
  tags: fc.array(small, { maxLength: 2 }),
});

/** The first revision: tables `t` and `u` with a few rows each. */
export const initialArb: fc.Arbitrary<Content> = fc
  .tuple(fc.array(dataArb, { minLength: 1, maxLength: 3 }), fc.array(dataArb, { maxLength: 2 }))
  .map(
    ([t, u]) =>
      new Map(
        [t, u].map((rows, i) => [
          TABLE_IDS[i] as string,
          { key: `base-${i}`, schema: clone(TABLE_SCHEMA), rows: new Map(rows.map((data, r) => [ROW_IDS[r] as string, data])) },
        ]),
      ),
  );

export function historyOpArb(schemaPatches: boolean): fc.Arbitrary<HistoryOp> {
  const side = fc.constantFrom<Side>(0, 1);
  const pick = { branch: side, table: fc.nat(7) };
  const of = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
  const rowOps = [
    of(8, fc.record({ ...pick, kind: fc.constant('leaf' as const), row: fc.nat(7), field: fc.constantFrom(...LEAVES), value: small })),
    of(2, fc.record({ ...pick, kind: fc.constant('append' as const), row: fc.nat(7), value: small })),
    of(2, fc.record({ ...pick, kind: fc.constant('createRow' as const), id: fc.constantFrom(...ROW_IDS), value: small })),
    of(2, fc.record({ ...pick, kind: fc.constant('renameRow' as const), row: fc.nat(7), id: fc.constantFrom(...ROW_IDS) })),
    of(2, fc.record({ ...pick, kind: fc.constant('deleteRow' as const), row: fc.nat(7) })),
    of(1, fc.record({ branch: side, kind: fc.constant('createTable' as const), id: fc.constantFrom(...TABLE_IDS), value: small })),
    of(1, fc.record({ ...pick, kind: fc.constant('renameTable' as const), id: fc.constantFrom(...TABLE_IDS) })),
    of(1, fc.record({ ...pick, kind: fc.constant('deleteTable' as const) })),
    of(5, fc.record({ branch: side, kind: fc.constant('commit' as const) })),
    of(
      5,
      fc.record({
        into: side,
        kind: fc.constant('merge' as const),
        strategy: fc.constantFrom<MergeStrategy | 'PICK'>('FAIL', 'OURS', 'THEIRS', 'PICK'),
        picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      }),
    ),
  ];
  const schemaOps = [
    of(1, fc.record({ ...pick, kind: fc.constant('addField' as const), field: fc.constantFrom('e', 'f') })),
    of(1, fc.record({ ...pick, kind: fc.constant('removeField' as const), field: fc.constantFrom('a', 'b', 'tags', 'e', 'x') })),
    of(1, fc.record({ ...pick, kind: fc.constant('renameField' as const), field: fc.constantFrom('a', 'e', 'tags'), to: fc.constantFrom('x', 'e') })),
  ];
  return fc.oneof(...(rowOps as fc.WeightedArbitrary<HistoryOp>[]), ...(schemaPatches ? (schemaOps as fc.WeightedArbitrary<HistoryOp>[]) : []));
}

const sortedKeys = <T>(map: ReadonlyMap<string, T>) => [...map.keys()].sort();
const at = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);

/** The node of `path` (`b/c`) in a table schema, or undefined. */
function nodeAt(schema: Data, path: string): Data | undefined {
  let node: Data | undefined = schema;
  for (const key of path.split('/')) node = (node?.properties as Data | undefined)?.[key] as Data | undefined;
  return node;
}

/**
 * The draft operations of one user write on `content` (none when the write would be refused, or when it would
 * give a table an id `usable` refuses).
 */
export function writeOperations(
  content: Content,
  op: Exclude<HistoryOp, { kind: 'commit' | 'merge' }>,
  usable: (tableId: string) => boolean = () => true,
): DraftOperation[] {
  if (op.kind === 'createTable') {
    if (content.has(op.id) || !usable(op.id)) return [];
    const data = { ...(defaultOf(TABLE_SCHEMA) as Data), a: op.value };
    return [
      { type: 'CreateTable', tableId: op.id, schema: clone(TABLE_SCHEMA) },
      { type: 'UpsertRows', tableId: op.id, rows: [{ rowId: 'r0', data }] },
    ];
  }
  const tableId = at(sortedKeys(content), op.table);
  const table = tableId === undefined ? undefined : content.get(tableId);
  if (tableId === undefined || table === undefined) return [];
  const props = table.schema.properties as Data;
  switch (op.kind) {
    case 'renameTable':
      return content.has(op.id) || !usable(op.id) ? [] : [{ type: 'RenameTable', tableId, nextTableId: op.id }];
    case 'deleteTable':
      return [{ type: 'DeleteTable', tableId }];
    case 'addField':
      return op.field in props
        ? []
        : [{ type: 'UpdateTable', tableId, patches: [{ op: 'add', path: `/properties/${op.field}`, value: FIELD_NODE }] }];
    case 'removeField':
      return op.field in props ? [{ type: 'UpdateTable', tableId, patches: [{ op: 'remove', path: `/properties/${op.field}` }] }] : [];
    case 'renameField':
      if (!(op.field in props) || op.to in props) return [];
      return [{ type: 'UpdateTable', tableId, patches: [{ op: 'move', from: `/properties/${op.field}`, path: `/properties/${op.to}` }] }];
    case 'createRow': {
      if (table.rows.has(op.id)) return [];
      const data = defaultOf(table.schema) as Data;
      if ('a' in props) data.a = op.value;
      return [{ type: 'UpsertRows', tableId, rows: [{ rowId: op.id, data }] }];
    }
    default:
      break;
  }
  const rowId = at(sortedKeys(table.rows), op.row);
  const row = rowId === undefined ? undefined : table.rows.get(rowId);
  if (rowId === undefined || row === undefined) return [];
  if (op.kind === 'deleteRow') return [{ type: 'DeleteRows', tableId, rowIds: [rowId] }];
  if (op.kind === 'renameRow') return table.rows.has(op.id) ? [] : [{ type: 'RenameRow', tableId, rowId, nextRowId: op.id }];
  const data = clone(row);
  if (op.kind === 'append') {
    if (!Array.isArray(data.tags) || nodeAt(table.schema, 'tags')?.type !== 'array') return [];
    data.tags = [...(data.tags as unknown[]), op.value];
  } else {
    if (nodeAt(table.schema, op.field) === undefined) return [];
    const [first, second] = op.field.split('/') as [string, string | undefined];
    if (second === undefined) data[first] = op.value;
    else if (typeof data[first] === 'object' && data[first] !== null) (data[first] as Data)[second] = op.value;
    else return [];
  }
  return [{ type: 'UpsertRows', tableId, rows: [{ rowId, data }] }];
}
