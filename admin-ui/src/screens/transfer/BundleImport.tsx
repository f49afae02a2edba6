import { useState } from 'react';
import { transferPaths, type BundleImportAnswer } from '../../api/transferTypes.ts';
import { Link } from '../../app/router.tsx';
import { Select } from '../../components/Fields.tsx';
import { TableChangesGrid } from '../ChangesView.tsx';
import { ImportForm } from './ImportForm.tsx';

const MODES = [
  { value: 'replace', label: 'Replace: the draft becomes the bundle' },
  { value: 'merge', label: 'Merge: create or replace, remove nothing' },
];

type BundleImportProps = {
  readonly org: string;
  readonly project: string;
  readonly branch: string;
  readonly reviewPath: string;
  readonly onImported: () => Promise<void>;
};

/** *Import bundle* on a branch draft (portability.md §3, §6): dry run first, then the draft's changes to review. */
export function BundleImport({ org, project, branch, reviewPath, onImported }: BundleImportProps) {
  const [mode, setMode] = useState('replace');
  return (
    <ImportForm<BundleImportAnswer>
      title="Import bundle"
      accept=".jsonl,.ndjson,application/x-ndjson"
      optionsKey={mode}
      options={<Select label="Bundle mode" value={mode} onChange={setMode} options={MODES} />}
      request={() => ({
        contentType: 'application/x-ndjson',
        url: (dryRun) => {
          const query = new URLSearchParams({ mode });
          if (dryRun) query.set('dryRun', 'true');
          return transferPaths.bundleImport(org, project, branch, query);
        },
      })}
      details={(answer) => (
        <>
          {answer.tables.length > 0 && (
            <TableChangesGrid
              changes={answer}
              selectedTable={null}
              caption={answer.dryRun ? 'Tables the bundle would change' : 'Tables the bundle changed'}
            />
          )}
          {!answer.dryRun && (
            <p>
              <Link to={reviewPath}>Review the imported changes</Link>
            </p>
          )}
        </>
      )}
      onImported={onImported}
    />
  );
}
