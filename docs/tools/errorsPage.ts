// docs/reference/errors.md from the error catalogue (contracts/errors/catalogue.ts): every code with its HTTP status
// and default message; when each is used comes from the spec's catalogue (errors.md §2).
import { errorCatalogue } from '../../contracts/index.ts';
import { cell, generatedBanner, readRepoFile, sectionOf, table, tableRows } from './markdown.ts';

/** `When` of each code in errors.md §2 (a code may be marked `(GraphQL)`). */
function specWhen(): Map<string, string> {
  const when = new Map<string, string>();
  for (const row of tableRows(sectionOf(readRepoFile('docs/spec/errors.md'), '2'))) {
    const code = /^`([A-Z_]+)`/.exec(row[0] ?? '')?.[1];
    if (code !== undefined && row[2] !== undefined) when.set(code, row[2]);
  }
  return when;
}

export function renderErrorsPage(): string {
  const when = specWhen();
  const rows = Object.entries(errorCatalogue).map(([code, { status, message }]) => [
    `<a id="${code.toLowerCase()}"></a>\`${code}\``,
    String(status),
    cell(message),
    cell(when.get(code) ?? '—'),
  ]);
  const byStatus = new Map<number, number>();
  for (const { status } of Object.values(errorCatalogue)) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const counts = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return [
    generatedBanner(['contracts/errors/catalogue.ts', 'docs/spec/errors.md §2']),
    '',
    '# Error codes',
    '',
    `Every refusal carries one of these ${Object.keys(errorCatalogue).length} stable codes (${counts}).`,
    'REST answers `{"statusCode", "code", "message", "details"?}` with the status below ([errors.md §1](../spec/errors.md));',
    'GraphQL puts the code in',
    '`errors[].extensions.code` (the status applies to the HTTP answer only when the request fails before execution,',
    '[errors.md §3](../spec/errors.md)); MCP tools answer `isError: true` with the same body',
    '([errors.md §5](../spec/errors.md)). Throw them as `new AppError(code, message, details)` and test with',
    '`isAppError(err, code)`. Link a code as `docs/reference/errors.md#<code in lower case>`. OAuth endpoints answer in',
    "RFC 6749 form instead ([oauth.md](../spec/oauth.md)). *Message* is the catalogue's default; *When* is the spec's.",
    '',
    table(['Code', 'HTTP', 'Message', 'When'], rows),
    '',
  ].join('\n');
}
