import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api/apiError.ts';
import type { Connection, JsonSchema, Table } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { JsonEditor, parseJson } from '../components/JsonEditor.tsx';
import { nameProblems, toDraft, toSchema } from '../lib/schemaDraft.ts';
import { draftPatch } from '../lib/schemaDraftPatch.ts';
import { diffSchema } from '../lib/schemaPatch.ts';
import { FieldList } from './schemaEditor/FieldList.tsx';
import { SchemaEditorContext } from './schemaEditor/schemaEditorContext.ts';
import { SchemaSaveBar } from './schemaEditor/SchemaSaveBar.tsx';

const TABLE_IDS = `query TableIds($data: GetTablesInput!) { tables(data: $data) { edges { node { id } } } }`;

type SchemaSectionProps = { readonly revisionId: string; readonly table: Table; readonly editable: boolean; readonly onSaved: () => void };
type Mode = 'visual' | 'json';

/**
 * The table schema (admin-ui.md §3.1 Schema editor). On the draft it is edited field by field or as JSON (second
 * tab); either way the edit becomes a JSON Patch against the stored schema (domain.md §6), previewed with a dry
 * run, then saved, which migrates every row. The server's details are shown at their field or JSON Pointer.
 */
export function SchemaSection({ revisionId, table, editable, onSaved }: SchemaSectionProps) {
  const api = useApi();
  const action = useAction();
  const original = useMemo(() => JSON.stringify(table.schema, null, 2), [table.schema]);
  const [mode, setMode] = useState<Mode>('visual');
  const [draft, setDraft] = useState(() => toDraft(table.schema));
  const [text, setText] = useState(original);
  const [tableIds] = useLoad(
    async () => (editable ? (await api.graphql<{ tables: Connection<{ id: string }> }>(TABLE_IDS, { data: { revisionId, first: 100 } })).tables.edges.map((e) => e.node.id) : []),
    [revisionId, editable],
  );
  // A reload after saving brings the stored schema: edit from there.
  useEffect(() => {
    setText(original);
    setDraft(toDraft(JSON.parse(original) as JsonSchema));
  }, [original]);
  const problems = useMemo(() => nameProblems(draft), [draft]);
  const parsed = parseJson(text);
  const patch = useMemo(() => {
    if (mode === 'visual') return problems.size > 0 ? null : draftPatch(table.schema, draft);
    return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? diffSchema(table.schema, parsed.value as JsonSchema) : null;
  }, [mode, problems, draft, table.schema, parsed.ok, parsed.ok ? parsed.value : null]);
  const schemaDetails = action.error instanceof ApiError && (action.error.code === 'INVALID_SCHEMA' || action.error.code === 'INVALID_PATCH') ? action.error.details : [];
  const context = useMemo(
    () => ({ tableId: table.id, tables: tableIds.status === 'ready' ? tableIds.data : [], details: schemaDetails, nameProblems: problems }),
    [table.id, tableIds, schemaDetails, problems],
  );
  const switchTo = (next: Mode): void => {
    if (next === mode) return;
    if (next === 'json') setText(JSON.stringify(toSchema(draft), null, 2));
    else if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) setDraft(toDraft(parsed.value as JsonSchema));
    else return;
    action.clear();
    setMode(next);
  };
  const discard = (): void => {
    setText(original);
    setDraft(toDraft(table.schema));
    action.clear();
  };

  if (!editable) {
    return (
      <section aria-labelledby="schema-title">
        <h2 id="schema-title">Schema</h2>
        <JsonEditor label="Schema (read-only)" value={original} readOnly rows={Math.min(24, original.split('\n').length + 2)} />
      </section>
    );
  }
  return (
    <section aria-labelledby="schema-title" className="schema-section">
      <h2 id="schema-title">Schema</h2>
      <div className="mode-toggle" role="group" aria-label="Schema editing mode">
        <button type="button" aria-pressed={mode === 'visual'} onClick={() => switchTo('visual')} disabled={mode === 'json' && !parsed.ok}>
          <span className="visually-hidden">Schema as </span>Fields
        </button>
        <button type="button" aria-pressed={mode === 'json'} onClick={() => switchTo('json')}>
          <span className="visually-hidden">Schema as </span>JSON
        </button>
      </div>
      {mode === 'visual' ? (
        <SchemaEditorContext.Provider value={context}>
          <FieldList fields={draft.fields} pointer="" owner={table.id} trail="" onChange={(fields) => setDraft({ ...draft, fields })} />
        </SchemaEditorContext.Provider>
      ) : (
        <JsonEditor
          label="Schema (edit and save; rows are migrated)"
          value={text}
          onChange={setText}
          details={action.error instanceof ApiError && action.error.code === 'INVALID_SCHEMA' ? action.error.details : []}
          rows={Math.min(24, original.split('\n').length + 2)}
        />
      )}
      <SchemaSaveBar revisionId={revisionId} tableId={table.id} patch={patch} action={action} onDiscard={discard} onSaved={onSaved} />
    </section>
  );
}
