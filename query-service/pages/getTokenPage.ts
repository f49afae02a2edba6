/** Path of the page's script: a separate same-origin file, because the page's CSP allows no inline script. */
export const GET_TOKEN_SCRIPT_PATH = '/get-token.js';

/** The `/get-token` page (system-api.md §6). It never contains a token: the script fetches one. */
export const getTokenHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata access token</title>
<script src="${GET_TOKEN_SCRIPT_PATH}" defer></script>
</head>
<body>
<main>
<h1>Access token</h1>
<p id="status">Loading…</p>
<section id="token" hidden>
<p><label for="value">Access token for API clients (send it as <code>Authorization: Bearer …</code>)</label></p>
<p><input id="value" type="text" size="64" readonly autocomplete="off" spellcheck="false"></p>
<p><button id="copy" type="button">Copy</button> <span id="copied" aria-live="polite"></span></p>
<p>Expires at <time id="expires"></time>.</p>
</section>
<section id="signed-out" hidden>
<p>Not signed in. <a href="/">Sign in</a></p>
</section>
</main>
</body>
</html>
`;

/**
 * The page's script: `issueAccessToken` over POST /graphql with the browser's cookies; on UNAUTHENTICATED or
 * TOKEN_EXPIRED one `POST /api/auth/refresh` and one retry; then the token with a copy button and its expiry, or
 * "Not signed in" with a link to `/`.
 */
export const getTokenScript = `'use strict';
(function () {
  var QUERY = JSON.stringify({ query: 'query { issueAccessToken { accessToken expiresIn } }' });
  function $(id) { return document.getElementById(id); }
  function issue() {
    return fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: QUERY
    }).then(function (res) { return res.json(); });
  }
  function codeOf(body) {
    var error = body && body.errors && body.errors[0];
    return error && error.extensions ? error.extensions.code : null;
  }
  function refreshAndRetry(body) {
    var code = codeOf(body);
    if (code !== 'UNAUTHENTICATED' && code !== 'TOKEN_EXPIRED') return body;
    return fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' }).then(issue);
  }
  function signedOut() {
    $('status').hidden = true;
    $('token').hidden = true;
    $('signed-out').hidden = false;
  }
  function show(token) {
    var expires = new Date(Date.now() + token.expiresIn * 1000);
    $('value').value = token.accessToken;
    $('expires').dateTime = expires.toISOString();
    $('expires').textContent = expires.toLocaleString();
    $('status').hidden = true;
    $('token').hidden = false;
    $('copy').addEventListener('click', function () {
      var done = function () { $('copied').textContent = 'Copied.'; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(token.accessToken).then(done, function () {
          $('value').select();
          document.execCommand('copy');
          done();
        });
      } else {
        $('value').select();
        document.execCommand('copy');
        done();
      }
    });
  }
  function start() {
    issue()
      .then(refreshAndRetry)
      .then(function (body) {
        var token = body && body.data && body.data.issueAccessToken;
        if (token && typeof token.accessToken === 'string') show(token);
        else signedOut();
      })
      .catch(signedOut);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;
