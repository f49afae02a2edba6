import type { Logger } from 'pino';
import { AppError } from '../../../contracts/index.ts';
import type { ErrorCode, SystemState, SystemStateSource } from '../../../contracts/index.ts';
import type { CatalogReader, HeadsOf } from '../../readers/catalogReader.ts';
import type { DirectoryReader } from '../../readers/directoryReader.ts';
import type { RowReader } from '../../readers/rowReader.ts';
import type { SchemaReader } from '../../readers/schemaReader.ts';
import type { TableModels } from '../../readers/tableModels.ts';

/** What every group of operations needs: the in-memory system state for access checks, readers for the views. */
export type OperationDeps = {
  readonly systemState: SystemStateSource;
  readonly directory: DirectoryReader;
  readonly catalog: CatalogReader;
  readonly schemas: SchemaReader;
  readonly rows: RowReader;
  readonly models: TableModels;
  readonly log: Logger;
};

/** HEAD/draft ids of a branch from the system state (current even while views lag). */
export function headsFrom(state: SystemState): HeadsOf {
  return (branchId) => state.branches.get(branchId) ?? null;
}

/**
 * The entity a resolved target names, read from its view. The state knows it, so a missing document means the view
 * has not caught up yet: answer as not found (clients use X-Strata-Min-Position to read their writes).
 */
export function found<T>(deps: OperationDeps, value: T | null, code: ErrorCode, message: string, id: string): T {
  if (value !== null) return value;
  deps.log.debug({ code, id }, 'entity not projected yet');
  throw new AppError(code, message);
}
