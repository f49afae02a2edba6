import type { ErrorDetail } from './apiError.ts';
import type { TableChange } from './changeTypes.ts';

/** One invalid line of an import (portability.md §2): the line number of the file, 1-based. */
export type ImportLineError = { line: number; rowId: string | null; code: string; message: string; details?: ErrorDetail[] };

/** The answer of a table import (portability.md §2). */
export type ImportAnswer = {
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  invalid: number;
  errors: ImportLineError[];
  dryRun: boolean;
};

/** The answer of a bundle import (portability.md §3): the draft's changes plus the counts of a table import. */
export type BundleImportAnswer = ImportAnswer & { revisionId: string; tables: TableChange[]; totalRowChanges: number };

/** REST paths of portability.md §1-§3, below the same origin. */
export const transferPaths = {
  tableExport: (revisionId: string, tableId: string, format: 'jsonl' | 'csv'): string =>
    `/api/revision/${encodeURIComponent(revisionId)}/table/${encodeURIComponent(tableId)}/export?format=${format}`,
  tableImport: (revisionId: string, tableId: string, query: URLSearchParams): string =>
    `/api/revision/${encodeURIComponent(revisionId)}/table/${encodeURIComponent(tableId)}/import?${query.toString()}`,
  bundleExport: (revisionId: string): string => `/api/revision/${encodeURIComponent(revisionId)}/bundle`,
  bundleImport: (org: string, project: string, branch: string, query: URLSearchParams): string =>
    `/api/organization/${encodeURIComponent(org)}/project/${encodeURIComponent(project)}/branch/${encodeURIComponent(branch)}/bundle?${query.toString()}`,
};
