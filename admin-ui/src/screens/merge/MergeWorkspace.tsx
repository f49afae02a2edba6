import { useState } from 'react';
import { MergeRevisionDocument, PreviewMergeDocument, type MergeInput, type PreviewMergeResult } from '../../api/generated/operations.ts';
import { projectContentKeys, useInvalidate, useOperation } from '../../app/queries.ts';
import { queryKeys } from '../../app/queryKeys.ts';
import { useNavigation } from '../../app/router.tsx';
import { useApi } from '../../app/session.tsx';
import { useAction } from '../../app/useAction.ts';
import { Async, Empty, ErrorBox, Notice } from '../../components/Status.tsx';
import { resolutionsOf, type MergeChoice, type MergeStrategy } from '../../lib/mergeChoices.ts';
import { TableChangesGrid } from '../ChangesView.tsx';
import { revisionPath, type RevisionAddress } from '../revisionContext.ts';
import { ConflictCard, type MergeConflict } from './ConflictCard.tsx';

type Preview = PreviewMergeResult['previewMerge'];

type MergeWorkspaceProps = { readonly address: RevisionAddress; readonly draftRevisionId: string; readonly sourceRevisionId: string };

/**
 * The preview of one source (merge.md §3): the conflicts as first found stay listed while they are resolved; every
 * choice (or strategy) previews again with the resolutions so far, which gives the changes the merge will make and
 * the conflicts still open (including INVALID_DATA / FOREIGN_KEY that a resolution may cause). *Merge* applies the
 * same input and opens Review changes on the draft.
 */
export function MergeWorkspace({ address, draftRevisionId, sourceRevisionId }: MergeWorkspaceProps) {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const [choices, setChoices] = useState<ReadonlyMap<string, MergeChoice>>(new Map());
  const [strategy, setStrategy] = useState<MergeStrategy>('FAIL');
  const target = { organizationId: address.org, projectName: address.project, branchName: address.branch, sourceRevisionId };
  const input: MergeInput = { ...target, resolutions: resolutionsOf(choices), strategy };
  const key = queryKeys.project(address.org, address.project);
  const first = useOperation(key, PreviewMergeDocument, { data: target }, { select: (d) => d.previewMerge });
  const current = useOperation(
    key,
    PreviewMergeDocument,
    { data: input },
    { select: (d) => d.previewMerge, keepPrevious: true, enabled: first.status === 'success' },
  );

  const choose = (conflictId: string, choice: MergeChoice | undefined): void => {
    const next = new Map(choices);
    if (choice) next.set(conflictId, choice);
    else next.delete(conflictId);
    setChoices(next);
  };
  const setAll = (next: MergeStrategy): void => {
    // "Take all theirs" / "Keep all ours" decide every conflict a strategy can: earlier side choices give way to it.
    setChoices(new Map([...choices].filter(([, choice]) => choice.take === 'VALUE' || choice.take === 'REMOVE')));
    setStrategy(next);
  };
  const merge = async (): Promise<void> => {
    const done = await action.run(() => api.request(MergeRevisionDocument, { data: input }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      navigation.navigate(`${revisionPath({ ...address, rev: 'draft' }, 'changes')}`);
    }
  };

  return (
    <Async value={first} what="the merge preview">
      {(initial) => {
        if (initial.status === 'UP_TO_DATE')
          return <Notice kind="success">Already up to date: the source is part of this branch, there is nothing to merge.</Notice>;
        const latest: Preview | undefined = current.data;
        const conflicts = unionConflicts(initial.conflicts, latest?.conflicts ?? initial.conflicts);
        const openIds = new Set((latest ?? initial).conflicts.map((conflict) => conflict.id));
        const openCount = latest ? latest.conflictCount : initial.conflictCount;
        const checking = current.isFetching;
        return (
          <>
            <section aria-labelledby="merge-changes-title">
              <h2 id="merge-changes-title">Changes to the draft</h2>
              {latest ? (
                <>
                  {latest.tables.length === 0 ? (
                    <Empty>
                      {openCount > 0
                        ? 'Nothing merges cleanly yet: the changes appear as the conflicts below are resolved.'
                        : 'The merge changes no table.'}
                    </Empty>
                  ) : (
                    <TableChangesGrid changes={latest} selectedTable={null} caption="Tables the merge changes" />
                  )}
                </>
              ) : current.status === 'error' ? (
                <ErrorBox error={current.error} onRetry={() => void current.refetch()} />
              ) : (
                <p className="status">Previewing…</p>
              )}
            </section>
            {conflicts.length > 0 && (
              <section aria-labelledby="conflicts-title">
                <h2 id="conflicts-title">Conflicts</h2>
                <p className="meta" role="status">
                  {checking
                    ? 'Checking the choices…'
                    : openCount === 0
                      ? `All ${conflicts.length} conflicts are resolved.`
                      : `${openCount} of ${Math.max(conflicts.length, openCount)} conflicts open.`}
                  {initial.conflictCount > initial.conflicts.length && ` The first ${initial.conflicts.length} are listed.`}
                </p>
                <div className="actions" role="group" aria-label="Resolve every conflict">
                  <button type="button" aria-pressed={strategy === 'THEIRS'} onClick={() => setAll(strategy === 'THEIRS' ? 'FAIL' : 'THEIRS')}>
                    Take all theirs
                  </button>
                  <button type="button" aria-pressed={strategy === 'OURS'} onClick={() => setAll(strategy === 'OURS' ? 'FAIL' : 'OURS')}>
                    Keep all ours
                  </button>
                </div>
                <ol className="conflict-list">
                  {conflicts.map((conflict) => (
                    <li key={conflict.id}>
                      <ConflictCard
                        conflict={conflict}
                        choice={choices.get(conflict.id)}
                        strategy={strategy}
                        open={openIds.has(conflict.id)}
                        draftRevisionId={draftRevisionId}
                        onChoose={(choice) => choose(conflict.id, choice)}
                      />
                    </li>
                  ))}
                </ol>
              </section>
            )}
            <section className="card" aria-labelledby="merge-apply-title">
              <h2 id="merge-apply-title">Apply</h2>
              <p className="meta">
                {openCount > 0
                  ? 'Resolve every conflict to merge.'
                  : `The merge writes ${plural(latest?.totalRowChanges ?? initial.totalRowChanges, 'row change')} into the draft; review and commit them afterwards.`}
              </p>
              {action.error !== null && <ErrorBox error={action.error} />}
              <button type="button" className="primary" disabled={action.busy || checking || openCount > 0 || !latest} onClick={() => void merge()}>
                Merge
              </button>
            </section>
          </>
        );
      }}
    </Async>
  );
}

/** The conflicts first found, then any new ones a later preview reports (a resolution can make a row invalid). */
function unionConflicts(first: readonly MergeConflict[], later: readonly MergeConflict[]): MergeConflict[] {
  const known = new Set(first.map((conflict) => conflict.id));
  return [...first, ...later.filter((conflict) => !known.has(conflict.id))];
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
