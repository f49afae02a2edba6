import { useEffect, useId, useState } from 'react';
import { SearchUsersDocument } from '../api/generated/operations.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Combobox } from '../components/Combobox.tsx';
import { LabelText } from '../components/Fields.tsx';

/** searchUsers needs 2–64 characters (system-api.md §3.2). */
export const MIN_SEARCH = 2;
const SHOWN = 10;
const DEBOUNCE_MS = 150;

export type PickedUser = { readonly id: string; readonly username: string };

type UserPickerProps = {
  readonly label: string;
  readonly labelContext?: string;
  /** The typed username. */
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly onPick: (user: PickedUser) => void;
  readonly hint?: string;
};

/** An existing user, found by the start of the username (`searchUsers`, any signed-in user may search). */
export function UserPicker({ label, labelContext, text, onText, onPick, hint }: UserPickerProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const searchable = search.length >= MIN_SEARCH && search.length <= 64;
  const users = useOperation(
    queryKeys.users(),
    SearchUsersDocument,
    { data: { search, first: SHOWN } },
    {
      enabled: open && searchable,
      keepPrevious: true,
      select: (d) => d.searchUsers.edges.map(({ node }) => node),
    },
  );
  const options = searchable && users.status === 'success' ? users.data.map((user) => ({ value: user.id, label: user.username })) : [];
  let note: string | null = null;
  if (!searchable) note = `Type at least ${MIN_SEARCH} letters of a username.`;
  else if (users.status === 'error') note = 'Users could not be searched.';
  else if (users.status === 'success' && options.length === 0) note = `No username starts with “${search}”.`;
  return (
    <div className="field">
      <label htmlFor={id}>
        <LabelText label={label} labelContext={labelContext} />
      </label>
      <Combobox
        id={id}
        text={text}
        onText={onText}
        options={options}
        onPick={(option) => onPick({ id: option.value, username: option.label })}
        listLabel="Matching users"
        note={note}
        onOpenChange={setOpen}
        describedBy={hint ? `${id}-hint` : undefined}
        required
      />
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}
