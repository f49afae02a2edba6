import { AppError } from '../../contracts/index.ts';
import type { ErrorCode, ErrorDetail } from '../../contracts/index.ts';
import type { TransferFormat } from './tableExport.ts';

export type ImportMode = 'insert' | 'upsert' | 'replace';

export type ImportOptions = {
  readonly format: TransferFormat;
  readonly mode: ImportMode;
  readonly onError: 'fail' | 'skip';
  readonly dryRun: boolean;
};

/** One invalid line of the answer (portability.md §2). */
export type ImportLineError = {
  readonly line: number;
  readonly rowId: string | null;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
};

export type ImportAnswer = {
  readonly processed: number;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
  readonly invalid: number;
  readonly errors: readonly ImportLineError[];
  readonly dryRun: boolean;
};

/** Invalid lines an answer or an IMPORT_INVALID error lists. */
export const MAX_REPORTED_LINES = 100;

function describe(code: ErrorCode, message: string, details?: readonly ErrorDetail[]): string {
  const where = details === undefined || details.length === 0 ? '' : ` (${details.map((d) => `${d.path}: ${d.message}`).join('; ')})`;
  return `${code}: ${message}${where}`;
}

/** `onError=fail`: any invalid line refuses the import with 400 IMPORT_INVALID listing the first lines. */
export function refuseIfInvalid(answer: ImportAnswer): void {
  if (answer.invalid === 0) return;
  const details = answer.errors.map((error) => ({ path: `/line/${error.line}`, message: describe(error.code, error.message, error.details) }));
  throw new AppError('IMPORT_INVALID', `${answer.invalid} of ${answer.processed} lines are invalid; nothing was imported`, details);
}
