import { Link } from '../app/router.tsx';
import { revisionPath, type RevisionAddress, type RevisionContext } from './revisionContext.ts';

/** Switch between the draft, HEAD and the historic revision being viewed; says whether it can be edited. */
export function RevisionTabs({ address, context }: { readonly address: RevisionAddress; readonly context: RevisionContext }) {
  const { branch, revision } = context;
  const historic = revision.id !== branch.draftRevisionId && revision.id !== branch.headRevisionId;
  return (
    <div className="revision-bar">
      <nav aria-label="Revision">
        <ul className="tabs">
          <li>
            <Link to={revisionPath({ ...address, rev: 'draft' })} aria-current={revision.id === branch.draftRevisionId ? 'page' : undefined}>
              Draft{branch.draft.hasChanges ? ' •' : ''}
            </Link>
          </li>
          <li>
            <Link to={revisionPath({ ...address, rev: 'head' })} aria-current={revision.id === branch.headRevisionId ? 'page' : undefined}>
              HEAD #{branch.head.sequence}
            </Link>
          </li>
          {historic && (
            <li>
              <span aria-current="page" className="tab-static">
                Revision #{revision.sequence}
              </span>
            </li>
          )}
        </ul>
      </nav>
      <p className="meta">
        {context.editable ? 'Editable draft' : 'Read-only'}
        {revision.comment ? ` · “${revision.comment}”` : ''}
      </p>
    </div>
  );
}
