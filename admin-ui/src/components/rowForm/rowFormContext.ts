import { createContext, useContext } from 'react';

/** What every control of one row form shares: the revision (for foreign key pickers) and the server's errors. */
export type RowFormContextValue = {
  readonly revisionId: string;
  /** Messages of the last failed save by JSON Pointer into the row (`/address/city`). */
  readonly errors: ReadonlyMap<string, readonly string[]>;
};

export const RowFormContext = createContext<RowFormContextValue>({ revisionId: '', errors: new Map() });

export function useRowForm(): RowFormContextValue {
  return useContext(RowFormContext);
}
