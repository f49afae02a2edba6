import { useState } from 'react';
import { transferPaths, type ImportAnswer } from '../../api/transferTypes.ts';
import { Checkbox, Select } from '../../components/Fields.tsx';
import { ImportForm } from './ImportForm.tsx';

type Format = 'jsonl' | 'csv';
type TableTransferProps = {
  readonly revisionId: string;
  readonly tableId: string;
  readonly editable: boolean;
  readonly onImported: () => Promise<void>;
};

const FORMATS = [
  { value: 'auto', label: 'From the file name' },
  { value: 'jsonl', label: 'JSON Lines' },
  { value: 'csv', label: 'CSV' },
];
const MODES = [
  { value: 'insert', label: 'Insert: new rows only' },
  { value: 'upsert', label: 'Upsert: create or replace' },
  { value: 'replace', label: 'Replace: the table becomes the file' },
];

/** A file's format: the chosen one, else `.csv` → CSV and anything else JSON Lines. */
function formatOf(choice: string, file: File): Format {
  if (choice === 'jsonl' || choice === 'csv') return choice;
  return /\.csv$/i.test(file.name) ? 'csv' : 'jsonl';
}

/** Export (JSON Lines or CSV) of a table, and on the draft its import (portability.md §6). */
export function TableTransfer({ revisionId, tableId, editable, onImported }: TableTransferProps) {
  const [format, setFormat] = useState('auto');
  const [mode, setMode] = useState('insert');
  const [skip, setSkip] = useState(false);
  return (
    <>
      <section className="card" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p className="meta">Every row of {tableId} in this revision, ordered by id.</p>
        <p className="actions">
          <a className="button-link" href={transferPaths.tableExport(revisionId, tableId, 'jsonl')} download={`${tableId}.jsonl`}>
            Export JSON Lines
          </a>
          <a className="button-link" href={transferPaths.tableExport(revisionId, tableId, 'csv')} download={`${tableId}.csv`}>
            Export CSV
          </a>
        </p>
      </section>
      {editable && (
        <ImportForm<ImportAnswer>
          title="Import rows"
          accept=".jsonl,.ndjson,.csv,application/x-ndjson,text/csv"
          optionsKey={`${format}|${mode}|${skip}`}
          options={
            <>
              <Select label="File format" value={format} onChange={setFormat} options={FORMATS} />
              <Select label="Import mode" value={mode} onChange={setMode} options={MODES} />
              <Checkbox label="Skip invalid lines (import the valid ones)" checked={skip} onChange={setSkip} />
            </>
          }
          request={(file) => {
            const fileFormat = formatOf(format, file);
            return {
              contentType: fileFormat === 'csv' ? 'text/csv' : 'application/x-ndjson',
              url: (dryRun) => {
                // The dry run always reads past invalid lines, so it answers the counts and every invalid line (up to
                // 100) whatever the import will do with them (portability.md §2 onError).
                const query = new URLSearchParams({ format: fileFormat, mode, onError: skip || dryRun ? 'skip' : 'fail' });
                if (dryRun) query.set('dryRun', 'true');
                return transferPaths.tableImport(revisionId, tableId, query);
              },
            };
          }}
          dryRunNote={(answer) =>
            answer.invalid === 0
              ? null
              : skip
                ? 'Import writes the valid lines and skips the invalid ones.'
                : 'Import is refused while lines are invalid: fix them, or skip them.'
          }
          onImported={onImported}
        />
      )}
    </>
  );
}
