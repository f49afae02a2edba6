import { eventTypeFilter, excludeSystemEvents, streamNameFilter } from '@kurrent/kurrentdb-client';
import type { Filter } from '@kurrent/kurrentdb-client';
import { streamCategory } from '../../contracts/index.ts';
import type { ReadAllOptions } from '../../contracts/index.ts';

/** The two fields a read of `$all` is filtered on. */
export type EventIdentity = { readonly streamId: string; readonly type: string };

/**
 * One server-side filtered read of `$all` plus the exact check applied to what it returns. The server filter keeps
 * the read cheap; `keep` is the source of truth (it also drops system events the server filter lets through).
 */
export type ReadSource = { readonly filter: Filter; readonly keep: (event: EventIdentity) => boolean };

/** KurrentDB's own events: system streams (`$stats-…`, `$$…` metadata) and system types (`$>` links, `$metadata`). */
export function isSystemEvent(event: EventIdentity): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Stream names whose category (text before the first `-`) is listed: `branch-1` and also `directory`, a stream
 * whose whole name is its category. A prefix filter cannot say "`directory` exactly or `directory-…`" without
 * also matching `directoryX`, so this is a regex (.NET syntax on the server; the subset used is the same in JS).
 */
export function categoryRegex(categories: readonly string[]): string {
  return `^(?:${[...new Set(categories)].map(escapeRegex).join('|')})(?:-|$)`;
}

/** Exact event types: a prefix filter would let `RowCreated` match `RowCreatedV2`. */
export function eventTypeRegex(eventTypes: readonly string[]): string {
  return `^(?:${[...new Set(eventTypes)].map(escapeRegex).join('|')})$`;
}

/** Every event but KurrentDB's own. */
export function userEventsSource(): ReadSource {
  return { filter: excludeSystemEvents(), keep: (event) => !isSystemEvent(event) };
}

/**
 * The reads that together answer `readAll` options. A server filter matches on stream name or on event type, never
 * both, so categories and event types (alternatives in the port: an event matching either is returned) are two
 * filtered reads whose results the caller merges by position. Both lists omitted = every user event; listed but
 * empty = no event at all (no sources).
 */
export function readAllSources(options: Pick<ReadAllOptions, 'categories' | 'eventTypes'>): ReadSource[] {
  const { categories, eventTypes } = options;
  if (categories === undefined && eventTypes === undefined) return [userEventsSource()];
  const sources: ReadSource[] = [];
  if (categories !== undefined && categories.length > 0) {
    const wanted = new Set(categories);
    sources.push({
      filter: streamNameFilter({ regex: categoryRegex(categories) }),
      keep: (event) => !isSystemEvent(event) && wanted.has(streamCategory(event.streamId)),
    });
  }
  if (eventTypes !== undefined && eventTypes.length > 0) {
    const wanted = new Set(eventTypes);
    sources.push({
      filter: eventTypeFilter({ regex: eventTypeRegex(eventTypes) }),
      keep: (event) => !isSystemEvent(event) && wanted.has(event.type),
    });
  }
  return sources;
}
