import { PAGE_INFO } from '../api/fragments.ts';

/** Queries of revision changes and row history (changes.md §1-§2). */
export const REVISION_CHANGES = `query RevisionChanges($data: GetRevisionChangesInput!) { revisionChanges(data: $data) {
  revisionId compareWith totalRowChanges
  tables { tableId previousTableId change schemaChanged rowChanges { added updated removed renamed total } } } }`;

export const ROW_CHANGES = `query RowChanges($data: GetRowChangesInput!) { rowChanges(data: $data) { ${PAGE_INFO}
  edges { cursor node { rowId previousRowId change before after fieldChanges { path before after } } } } }`;

export const ROW_HISTORY = `query RowHistory($data: GetRowHistoryInput!) { rowHistory(data: $data) { ${PAGE_INFO}
  edges { cursor node { revisionId branchName committedAt comment change rowId tableId data actorId } } } }`;

export const COMMIT = `mutation Commit($data: CreateRevisionInput!) { createRevision(data: $data) { id sequence } }`;
