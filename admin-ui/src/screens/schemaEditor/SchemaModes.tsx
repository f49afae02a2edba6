import { useCallback, useMemo, useState } from 'react';
import type { ErrorDetail } from '../../api/apiError.ts';
import type { JsonSchema } from '../../api/types.ts';
import { JsonEditor, parseJson } from '../../components/JsonEditor.tsx';
import { nameProblems, toDraft, toSchema, type NodeDraft } from '../../lib/schemaDraft.ts';
import { FieldList } from './FieldList.tsx';
import { SchemaEditorContext } from './schemaEditorContext.ts';

export type SchemaMode = 'visual' | 'json';

/** A schema being edited field by field or as JSON text: switching carries the edit over to the other mode. */
export type SchemaModesState = {
  readonly mode: SchemaMode;
  readonly draft: NodeDraft;
  readonly text: string;
  /** Name problems of the visual draft, by `<object pointer>/properties/#<field key>`. */
  readonly problems: ReadonlyMap<string, string>;
  /** The JSON mode's text parsed, when it is a JSON object. */
  readonly parsed: JsonSchema | null;
  /** Whether the JSON text is JSON at all (the editor shows where it breaks otherwise). */
  readonly textIsJson: boolean;
  setDraft(draft: NodeDraft): void;
  setText(text: string): void;
  switchTo(mode: SchemaMode): boolean;
  /** Starts again from `schema` (after a save, or Discard). */
  reset(schema: JsonSchema): void;
};

export function useSchemaModes(initial: JsonSchema, initialMode: SchemaMode = 'visual'): SchemaModesState {
  const [mode, setMode] = useState<SchemaMode>(initialMode);
  const [draft, setDraft] = useState(() => toDraft(initial));
  const [text, setText] = useState(() => JSON.stringify(initial, null, 2));
  const problems = useMemo(() => nameProblems(draft), [draft]);
  const reset = useCallback((schema: JsonSchema) => {
    setText(JSON.stringify(schema, null, 2));
    setDraft(toDraft(schema));
  }, []);
  const json = parseJson(text);
  const parsed = json.ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) ? (json.value as JsonSchema) : null;
  return {
    mode,
    draft,
    text,
    problems,
    parsed,
    textIsJson: json.ok,
    setDraft,
    setText,
    switchTo(next) {
      if (next === mode) return true;
      if (next === 'json') setText(JSON.stringify(toSchema(draft), null, 2));
      else if (parsed) setDraft(toDraft(parsed));
      else return false;
      setMode(next);
      return true;
    },
    reset,
  };
}

type SchemaModesProps = {
  readonly state: SchemaModesState;
  /** The table the schema belongs to ("Add field to posts"); '' while a new table has no id yet. */
  readonly tableId: string;
  /** Table ids a foreign key may name. */
  readonly tables: readonly string[];
  /** INVALID_SCHEMA / INVALID_PATCH details of the last answer; `path` points into the schema. */
  readonly details: readonly ErrorDetail[];
  /** The details the JSON text shows at their place (INVALID_SCHEMA ones: pointers into the whole schema). */
  readonly jsonDetails: readonly ErrorDetail[];
  readonly jsonLabel: string;
  readonly jsonHint?: string;
  readonly onModeChange?: () => void;
};

/** The mode switch ("Fields" / "JSON"), then the visual field list or the JSON text with its errors in place. */
export function SchemaModes({ state, tableId, tables, details, jsonDetails, jsonLabel, jsonHint, onModeChange }: SchemaModesProps) {
  const context = useMemo(() => ({ tableId, tables, details, nameProblems: state.problems }), [tableId, tables, details, state.problems]);
  const switchTo = (mode: SchemaMode): void => {
    if (mode !== state.mode && state.switchTo(mode)) onModeChange?.();
  };
  return (
    <>
      <div className="mode-toggle" role="group" aria-label="Schema editing mode">
        <button
          type="button"
          aria-pressed={state.mode === 'visual'}
          onClick={() => switchTo('visual')}
          disabled={state.mode === 'json' && state.parsed === null}
        >
          <span className="visually-hidden">Schema as </span>Fields
        </button>
        <button type="button" aria-pressed={state.mode === 'json'} onClick={() => switchTo('json')}>
          <span className="visually-hidden">Schema as </span>JSON
        </button>
      </div>
      {state.mode === 'visual' ? (
        <SchemaEditorContext.Provider value={context}>
          <FieldList
            fields={state.draft.fields}
            pointer=""
            owner={tableId || 'the new table'}
            trail=""
            onChange={(fields) => state.setDraft({ ...state.draft, fields })}
          />
        </SchemaEditorContext.Provider>
      ) : (
        <JsonEditor
          label={jsonLabel}
          {...(jsonHint ? { hint: jsonHint } : {})}
          value={state.text}
          onChange={state.setText}
          details={jsonDetails}
          rows={Math.min(24, state.text.split('\n').length + 2)}
        />
      )}
    </>
  );
}
