import { FieldChangesTable } from '../../components/FieldChangesTable.tsx';
import { GridTable } from '../../components/GridTable.tsx';
import { JsonValue } from '../../components/JsonValue.tsx';
import { fieldDiff } from '../../lib/fieldDiff.ts';
import { rowCount } from '../../lib/migrationLoss.ts';

export type LossySample = { readonly rowId: string; readonly path: string; readonly before: unknown; readonly after: unknown };

export type TableMigration = {
  readonly rowsChanged: number;
  readonly rowsUnchanged: number;
  /** Rows where a conversion could not keep a value and used its rule's fallback (domain.md §6 rule 6). */
  readonly rowsLossy: number;
  readonly sample: readonly { readonly rowId: string; readonly before: unknown; readonly after: unknown }[];
  readonly lossySample: readonly LossySample[];
};

/**
 * What a dry run of the patch answered (domain.md §6 rule 6): rows changed and unchanged with up to 5 samples, and
 * first, when a conversion loses data, how many rows lose it and where (up to 5 values before and after).
 */
export function MigrationPreview({ migration }: { readonly migration: TableMigration }) {
  return (
    <section className="migration-preview" aria-label="Migration preview">
      {migration.rowsLossy > 0 && <DataLoss migration={migration} />}
      <p role="status">
        <strong>{rowCount(migration.rowsChanged)} will change</strong>, {rowCount(migration.rowsUnchanged)} unchanged.
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

function DataLoss({ migration }: { readonly migration: TableMigration }) {
  const shown = migration.lossySample.length;
  return (
    <div className="data-loss" role="alert">
      <p className="data-loss-title">
        <strong>{rowCount(migration.rowsLossy)} will lose data.</strong> A value that cannot be converted is replaced by its rule&apos;s fallback (for
        example a text that is no number becomes 0) and the old value is gone.
      </p>
      {shown > 0 && (
        <GridTable
          items={migration.lossySample}
          rowKey={(sample) => `${sample.rowId} ${sample.path}`}
          caption={shown < migration.rowsLossy ? `Data lost, ${shown} of ${migration.rowsLossy} rows` : 'Data lost'}
          scrollLabel="Data lost, scrollable"
          head={
            <>
              <th scope="col">Row</th>
              <th scope="col">Path</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </>
          }
          row={(sample) => (
            <>
              <th scope="row">{sample.rowId}</th>
              <td>
                <code>{sample.path}</code>
              </td>
              <td>
                <JsonValue value={sample.before} />
              </td>
              <td>
                <JsonValue value={sample.after} />
              </td>
            </>
          )}
        />
      )}
    </div>
  );
}
