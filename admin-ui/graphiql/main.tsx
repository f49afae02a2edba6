import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './graphiql.css';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadExampleQuery } from './exampleQuery.ts';

// The query service serves this page at the endpoint's own URL and names it in `data-endpoint`; the page's location
// (with its query, e.g. api_key) is the fallback.
const root = document.getElementById('graphiql') as HTMLElement;
const endpoint = root.dataset.endpoint || window.location.pathname;
const url = `${endpoint}${window.location.search}`.replace(/([?&])query=[^&]*&?/, '$1').replace(/[?&]$/, '');

// Same-origin requests with the browser's cookies (svc_at); credentials may also be entered as headers in the UI.
const sameOrigin: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'same-origin' });
const fetcher = createGraphiQLFetcher({ url, fetch: sameOrigin });

async function post(query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const res = await sameOrigin(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return res.json();
}

// A first visit opens with a working query on the endpoint's first table; GraphiQL keeps later edits in storage.
void loadExampleQuery(post).then((example) =>
  createRoot(root).render(
    <StrictMode>
      <GraphiQL fetcher={fetcher} defaultEditorToolsVisibility={false} {...(example ? { defaultQuery: example } : {})} />
    </StrictMode>,
  ),
);
