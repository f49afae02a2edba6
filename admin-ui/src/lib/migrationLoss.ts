/** "1 row", "3 rows". */
export function rowCount(n: number): string {
  return `${n} ${n === 1 ? 'row' : 'rows'}`;
}

/** What a dry run's migration says about data loss (domain.md §6 rule 6 `rowsLossy`). */
type LossCount = { readonly rowsLossy: number };

/** The sentence a user confirms before a save that loses data; null when the migration loses nothing. */
export function lossConfirmation(migration: LossCount): string | null {
  return migration.rowsLossy > 0 ? `I understand that ${rowCount(migration.rowsLossy)} will lose data` : null;
}

/** Whether Save may be pressed after this preview: always when nothing is lost, else only once confirmed. */
export function maySave(migration: LossCount, confirmed: boolean): boolean {
  return migration.rowsLossy === 0 || confirmed;
}
