import type { ProjectionSpec } from '../ports/viewStore.ts';

/**
 * Storage layout of the domain projections (operations.md §3 names), shared by the projectors that write them and
 * the readers that query them.
 *
 * Versioned content (tables and rows) uses validity intervals per branch: a version is visible in the revision with
 * sequence `s` of its branch iff `fromSeq <= s < toSeq`. An open version has `toSeq = OPEN_SEQ`. A commit moves no
 * version (O(1) in rows); a draft change closes the shared version at the draft's sequence and writes a draft
 * version; a revert deletes the draft versions and reopens the closed ones (O(changed rows)).
 */
export const OPEN_SEQ = 1_000_000_000_000_000;

export const directoryViews = {
  name: 'directory',
  version: 1,
  collections: [
    {
      name: 'users',
      key: ['id'],
      fields: {
        id: 'text',
        username: 'text',
        usernameLower: 'text',
        email: 'text',
        role: 'text',
        isActive: 'boolean',
        organizationId: 'text',
        createdAt: 'text',
      },
      indexes: [{ fields: ['username'] }, { fields: ['usernameLower'] }],
    },
    {
      name: 'organizations',
      key: ['id'],
      fields: { id: 'text', isPersonal: 'boolean', createdAt: 'text' },
    },
    {
      name: 'organization_members',
      key: ['organizationId', 'userId'],
      fields: { organizationId: 'text', userId: 'text', username: 'text', role: 'text' },
      indexes: [{ fields: ['organizationId', 'username'] }, { fields: ['userId', 'organizationId'] }],
    },
    {
      name: 'project_members',
      key: ['projectId', 'userId'],
      fields: { projectId: 'text', organizationId: 'text', userId: 'text', username: 'text', role: 'text' },
      indexes: [{ fields: ['projectId', 'username'] }, { fields: ['organizationId', 'userId'] }],
    },
  ],
} as const satisfies ProjectionSpec;

export const catalogViews = {
  name: 'catalog',
  version: 1,
  collections: [
    {
      name: 'projects',
      key: ['id'],
      fields: {
        id: 'text',
        organizationId: 'text',
        name: 'text',
        isPublic: 'boolean',
        rootBranchId: 'text',
        rootBranchName: 'text',
        createdAt: 'text',
        deleted: 'boolean',
      },
      indexes: [{ fields: ['organizationId', 'deleted', 'name'] }],
    },
    {
      name: 'branches',
      key: ['id'],
      fields: {
        id: 'text',
        projectId: 'text',
        organizationId: 'text',
        name: 'text',
        isRoot: 'boolean',
        createdAt: 'text',
        headRevisionId: 'text',
        draftRevisionId: 'text',
        startRevisionId: 'text',
        /** Sequence of the HEAD revision (the draft is headSeq + 1). */
        headSeq: 'integer',
        parentBranchName: 'text',
        parentRevisionId: 'text',
        /** The draft's hasChanges. */
        touched: 'boolean',
        deleted: 'boolean',
      },
      indexes: [{ fields: ['projectId', 'deleted', 'isRoot', 'name'] }],
    },
    {
      name: 'revisions',
      key: ['id'],
      fields: {
        id: 'text',
        branchId: 'text',
        projectId: 'text',
        sequence: 'integer',
        parentId: 'text',
        isStart: 'boolean',
        hasChanges: 'boolean',
        comment: 'text',
        createdAt: 'text',
        /** null while the revision is the draft. */
        committedAt: 'text',
      },
      indexes: [{ fields: ['branchId', 'sequence'] }],
    },
    {
      name: 'endpoints',
      key: ['id'],
      fields: {
        id: 'text',
        organizationId: 'text',
        projectId: 'text',
        projectName: 'text',
        branchId: 'text',
        branchName: 'text',
        type: 'text',
        mode: 'text',
        /** The pinned revision; null for head/draft endpoints (their revision comes from the branch). */
        pinnedRevisionId: 'text',
        createdAt: 'text',
        deleted: 'boolean',
      },
      indexes: [{ fields: ['projectId', 'deleted', 'createdAt'] }, { fields: ['branchId', 'deleted'] }],
    },
  ],
} as const satisfies ProjectionSpec;

/**
 * Versions 2 of `schemas` and `rows` are the copy-on-write layout (docs/reference/versioned-storage.md §1): a branch
 * holds only what it wrote (versions, partial table versions, tombstones) and reads the rest through its layers.
 * Version 1 copied the source's versions into a new branch; a store still on it is rebuilt at start.
 */
export const schemaViews = {
  name: 'schemas',
  version: 3,
  collections: [
    {
      name: 'tables',
      key: ['branchId', 'tableKey', 'fromSeq'],
      fields: {
        branchId: 'text',
        tableKey: 'text',
        fromSeq: 'integer',
        toSeq: 'integer',
        tableId: 'text',
        schema: 'json',
        count: 'integer',
        createdAt: 'text',
        updatedAt: 'text',
        /** A deletion (docs/reference/versioned-storage.md §1): hides the table in lower layers, never read itself. */
        tombstone: 'boolean',
      },
      indexes: [{ fields: ['branchId', 'tableId', 'fromSeq'] }, { fields: ['branchId', 'toSeq'] }],
    },
    {
      // The schema patches of each updateTable (TableSchemaUpdated) and each draft revert of a branch, by branch
      // stream revision (contracts/merge/schemaPatchChain.ts `PatchEntry`): a merge replays the changing side's
      // patches on the other side's rows (merge.md §2.1) and reads them here. A revert has no table and no patches.
      name: 'schema_patches',
      key: ['branchId', 'revision'],
      fields: {
        branchId: 'text',
        revision: 'integer',
        draftSeq: 'integer',
        tableKey: 'text',
        patches: 'json',
      },
    },
  ],
} as const satisfies ProjectionSpec;

export const rowViews = {
  name: 'rows',
  version: 2,
  collections: [
    {
      name: 'rows',
      key: ['branchId', 'tableKey', 'rowId', 'fromSeq'],
      fields: {
        branchId: 'text',
        tableKey: 'text',
        rowId: 'text',
        fromSeq: 'integer',
        toSeq: 'integer',
        data: 'json',
        createdAt: 'text',
        updatedAt: 'text',
        /** Who wrote this version: the event's principal (`user:<id>`, `key:<id>`, `system`). */
        actor: 'text',
        /** A deletion or the old id of a rename (docs/reference/versioned-storage.md §1): hides the row in lower layers. */
        tombstone: 'boolean',
      },
      indexes: [
        // No index for row lists: each order a list asks for gets its own index on first use (the default order's
        // when the server starts: query-service/readers/rowIndexes.ts). Two declared time indexes here duplicated
        // those orders' columns: 2 of 8 B-trees every row version of a scale-bench table updated, 5 s of a rebuild's
        // last phase at 1,000,000 rows. Files made before keep them; a rebuild leaves them out.
        // Reverts and table deletions select a branch's versions by sequence: a rebuild replaying them needs these
        // while it writes (without them a revert on a 100,000-row branch scans the whole branch).
        { fields: ['branchId', 'toSeq'] },
        { fields: ['branchId', 'fromSeq'] },
      ],
    },
    {
      // What a row version cannot say about itself (changes.md §1-§2): a row renamed from another id, or deleted, in
      // revision `seq` of the branch, with who did it. Revision diffs pair a removed id with its new id through the
      // renames of the revisions between base and target; row history names the deleter and the previous id. Keyed
      // by the log position too: one row may be renamed and deleted several times in one draft (applied in order).
      name: 'row_marks',
      key: ['branchId', 'seq', 'tableKey', 'rowId', 'position'],
      fields: {
        branchId: 'text',
        seq: 'integer',
        tableKey: 'text',
        rowId: 'text',
        position: 'text',
        /** `renamed` (rowId is the new id, previousRowId the old one) or `deleted`. */
        kind: 'text',
        previousRowId: 'text',
        actor: 'text',
      },
    },
  ],
} as const satisfies ProjectionSpec;

export const domainViewSpecs = [directoryViews, catalogViews, schemaViews, rowViews] as const;
