import { useState, type FormEvent } from 'react';
import { BranchesDocument } from '../api/generated/operations.ts';
import type { Branch } from '../api/types.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useLocation, useNavigation } from '../app/router.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty } from '../components/Status.tsx';
import { ChangesView } from './ChangesView.tsx';
import { RevisionPicker, type RevisionChoice } from './RevisionPicker.tsx';

const BRANCHES_SHOWN = 100;

type Comparison = { readonly base: RevisionChoice; readonly target: RevisionChoice; readonly table?: string };

/** The app path of the compare view: `target` against `base`, optionally with one table's rows open. */
export function compareLink(org: string, project: string, { base, target, table }: Comparison): string {
  const query = new URLSearchParams({ baseBranch: base.branch, base: base.revisionId, branch: target.branch, target: target.revisionId });
  if (table) query.set('table', table);
  return `${pathOf('org', org, 'project', project, 'compare')}?${query.toString()}`;
}

/** Compare any two revisions of a project, on any branches (admin-ui.md §3.1), presented like Review changes. */
export function ComparePage({ params }: ScreenProps) {
  const org = params.org as string;
  const project = params.project as string;
  const navigation = useNavigation();
  const { search } = useLocation();
  const base = { branch: search.get('baseBranch') ?? '', revisionId: search.get('base') ?? '' };
  const target = { branch: search.get('branch') ?? '', revisionId: search.get('target') ?? '' };
  const branches = useOperation(
    queryKeys.project(org, project),
    BranchesDocument,
    { data: { organizationId: org, projectName: project, first: BRANCHES_SHOWN } },
    { select: (d) => d.branches.edges.map((edge) => edge.node) },
  );
  const ready = base.revisionId !== '' && target.revisionId !== '';
  return (
    <>
      <PageTitle title="Compare revisions" />
      <p className="meta">Pick the base (before) and the revision to compare with it (after), on any branch of {project}.</p>
      <Async value={branches} what="branches">
        {(list) => (
          <CompareForm
            key={`${base.revisionId}|${target.revisionId}`}
            org={org}
            project={project}
            branches={list}
            initial={defaults(list, base, target)}
            onCompare={(comparison) => navigation.navigate(compareLink(org, project, comparison))}
          />
        )}
      </Async>
      {ready ? (
        <ChangesView
          revisionId={target.revisionId}
          compareWith={base.revisionId}
          selectedTable={search.get('table')}
          tableLink={(table) => compareLink(org, project, { base, target, table })}
          rowLinks={(table, change) => {
            // A row removed here may never have existed in the compared revision (it can be older than the base).
            if (change.change === 'REMOVED') return { row: null, history: null };
            const row = pathOf(
              'org',
              org,
              'project',
              project,
              'branch',
              target.branch,
              target.revisionId,
              'table',
              table.tableId,
              'row',
              change.rowId,
            );
            return { row, history: `${row}/history` };
          }}
        />
      ) : (
        <Empty>Pick two revisions and press Compare.</Empty>
      )}
    </>
  );
}

/** Without a link's choice: the root branch's HEAD as the base and its draft as the target (uncommitted changes). */
function defaults(branches: readonly Branch[], base: RevisionChoice, target: RevisionChoice): Comparison {
  const root = branches.find((branch) => branch.isRoot) ?? branches[0];
  return {
    base: base.revisionId ? base : { branch: root?.name ?? '', revisionId: root?.headRevisionId ?? '' },
    target: target.revisionId ? target : { branch: root?.name ?? '', revisionId: root?.draftRevisionId ?? '' },
  };
}

type CompareFormProps = {
  readonly org: string;
  readonly project: string;
  readonly branches: readonly Branch[];
  readonly initial: Comparison;
  readonly onCompare: (comparison: Comparison) => void;
};

function CompareForm({ org, project, branches, initial, onCompare }: CompareFormProps) {
  const [base, setBase] = useState(initial.base);
  const [target, setTarget] = useState(initial.target);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    onCompare({ base, target });
  };
  return (
    <form className="card form compare-form" onSubmit={submit} aria-label="Revisions to compare">
      <div className="compare-pickers">
        <RevisionPicker
          legend="Base (before)"
          labelContext="(before)"
          org={org}
          project={project}
          branches={branches}
          value={base}
          onChange={setBase}
        />
        <RevisionPicker
          legend="Compared (after)"
          labelContext="(after)"
          org={org}
          project={project}
          branches={branches}
          value={target}
          onChange={setTarget}
        />
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={base.revisionId === '' || target.revisionId === ''}>
          Compare
        </button>
        <button
          type="button"
          onClick={() => {
            setBase(target);
            setTarget(base);
          }}
        >
          Swap base and compared
        </button>
      </div>
    </form>
  );
}
