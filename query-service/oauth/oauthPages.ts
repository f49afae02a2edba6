import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';

/** Plain words for each scope on the consent screen (oauth.md §4). */
const SCOPE_WORDS: Readonly<Record<string, string>> = {
  'strata:read': 'Read your organizations, projects, tables and rows',
  'strata:write': 'Create, change and delete projects, branches, tables and rows',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The Admin UI's built stylesheet (`/admin/assets/style-*.css`), so the page has its look; null when not built. */
export function adminStylesheetOf(adminUiDir: string | undefined): string | null {
  if (adminUiDir === undefined) return null;
  try {
    const css = readdirSync(join(adminUiDir, 'assets')).find((name) => name.endsWith('.css'));
    return css === undefined ? null : `/admin/assets/${css}`;
  } catch {
    return null;
  }
}

/**
 * The Admin UI's security headers (admin-ui.md §1) with `frame-ancestors 'none'`; `formTargets` are the origins a form
 * may end up at (a form POST that redirects to the client's redirect URI needs it in `form-action`).
 */
export function setPageHeaders(res: Response, formTargets: readonly string[] = []): void {
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export type PageShell = { readonly stylesheet: string | null };

function page(shell: PageShell, title: string, body: string): string {
  const css = shell.stylesheet === null ? '' : `<link rel="stylesheet" href="${escapeHtml(shell.stylesheet)}">`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Strata</title>${css}</head><body>
<header class="app-header"><span class="brand">Strata</span></header>
<main class="content"><div class="centered"><div class="card">${body}</div></div></main></body></html>`;
}

function hiddenInputs(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** An error page: never a redirect (oauth.md §4). */
export function sendErrorPage(res: Response, shell: PageShell, status: number, title: string, message: string): void {
  setPageHeaders(res);
  res
    .status(status)
    .type('text/html; charset=utf-8')
    .send(page(shell, title, `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>`));
}

/** Sign-in before consent: the same login (rules, throttling) as the Admin UI. */
export function sendSignInPage(res: Response, shell: PageShell, request: Readonly<Record<string, string>>, error: string | null, status = 200): void {
  setPageHeaders(res);
  const alert = error === null ? '' : `<div class="error-box" role="alert"><p>${escapeHtml(error)}</p></div>`;
  const body = `<h1>Sign in to Strata</h1><p class="meta">An application asks to connect to your Strata account. Sign in to continue.</p>${alert}
<form class="form" method="post" action="/oauth/authorize/login">${hiddenInputs(request)}
<div class="field"><label for="username">Username</label><input id="username" name="username" autocomplete="username" required></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button class="primary" type="submit">Sign in</button></form>`;
  res
    .status(status)
    .type('text/html; charset=utf-8')
    .send(page(shell, 'Sign in', body));
}

export type ConsentView = {
  readonly clientName: string | null;
  readonly registered: boolean;
  readonly documentHost: string | null;
  readonly redirectHost: string;
  readonly redirectOrigin: string;
  readonly scopes: readonly string[];
  readonly username: string;
  readonly organizations: readonly string[];
  /** The request's parameters and the anti-forgery token, posted back with the decision. */
  readonly fields: Readonly<Record<string, string>>;
};

/** The consent screen (oauth.md §4): who asks, where the answer goes, what it may do, and the narrowing choices. */
export function sendConsentPage(res: Response, shell: PageShell, view: ConsentView): void {
  setPageHeaders(res, [view.redirectOrigin]);
  const name = escapeHtml(view.clientName ?? 'An unnamed application');
  const unverified = view.registered ? ' <span class="badge badge-warn">unverified</span>' : '';
  const host = view.documentHost === null ? '' : `<p>Published by <strong class="code">${escapeHtml(view.documentHost)}</strong></p>`;
  const scopes = view.scopes.map((s) => `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)} <span class="hint code">${escapeHtml(s)}</span></li>`).join('');
  const options = view.organizations.map((o) => `<option value="${escapeHtml(o)}">${escapeHtml(o)}</option>`).join('');
  const readOnly = view.scopes.includes('strata:write')
    ? '<div class="field checkbox"><input type="checkbox" id="read_only" name="read_only" value="1"><label for="read_only">Read only (do not allow changes)</label></div>'
    : '';
  const body = `<h1>Connect ${name}${unverified}</h1>${host}
<p>Signed in as <strong>${escapeHtml(view.username)}</strong>. After you decide, you return to <strong class="code">${escapeHtml(view.redirectHost)}</strong>.</p>
<h2>This application will be able to</h2><ul>${scopes}</ul>
<form class="form" method="post" action="/oauth/authorize">${hiddenInputs(view.fields)}
<div class="field"><label for="organization">Organization</label><select id="organization" name="organization"><option value="">All my organizations</option>${options}</select></div>
${readOnly}<div class="actions"><button class="primary" type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div></form>`;
  res
    .status(200)
    .type('text/html; charset=utf-8')
    .send(page(shell, 'Connect an application', body));
}
