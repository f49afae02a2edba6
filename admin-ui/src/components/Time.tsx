/** A timestamp in the reader's locale, with the exact UTC value on hover. */
export function Time({ value, empty = '—' }: { readonly value: string | null | undefined; readonly empty?: string }) {
  if (!value) return <>{empty}</>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <time dateTime={value} title={value}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}
