import { FieldChangesTable } from '../../components/FieldChangesTable.tsx';
import { fieldDiff } from '../../lib/fieldDiff.ts';

export type TableMigration = {
  readonly rowsChanged: number;
  readonly rowsUnchanged: number;
  readonly sample: readonly { readonly rowId: string; readonly before: unknown; readonly after: unknown }[];
};

export const PREVIEW_UPDATE_TABLE = `query PreviewUpdateTable($data: UpdateTableInput!) {
  previewUpdateTable(data: $data) { migration { rowsChanged rowsUnchanged sample { rowId before after } } }
}`;

const rows = (n: number): string => `${n} ${n === 1 ? 'row' : 'rows'}`;

/** What a dry run of the patch answered (domain.md §6 rule 6): rows changed and unchanged, and up to 5 samples. */
export function MigrationPreview({ migration }: { readonly migration: TableMigration }) {
  return (
    <section className="migration-preview" aria-label="Migration preview">
      <p role="status">
        <strong>{rows(migration.rowsChanged)} will change</strong>, {rows(migration.rowsUnchanged)} unchanged.
      </p>
      {migration.sample.map((sample) => (
        <div key={sample.rowId}>
          <p className="document-label">Row {sample.rowId}</p>
          <FieldChangesTable changes={fieldDiff(sample.before, sample.after)} caption={`Row ${sample.rowId} before and after`} />
        </div>
      ))}
    </section>
  );
}
