/**
 * A JSON value for reading: a missing value as a dash (named for screen readers), a primitive inline as JSON
 * (strings quoted, so "1" and 1 differ), an object or array pretty-printed on several lines.
 */
export function JsonValue({ value, missing = 'none' }: { readonly value: unknown; readonly missing?: string }) {
  if (value === null || value === undefined) {
    return (
      <span className="json-missing">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{missing}</span>
      </span>
    );
  }
  if (typeof value === 'object') {
    return <pre className="json-block">{JSON.stringify(value, null, 2)}</pre>;
  }
  return <code className="json-inline">{JSON.stringify(value)}</code>;
}
