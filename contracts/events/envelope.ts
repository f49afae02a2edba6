/** Who caused an event: `user:<id>`, `key:<id>`, `anonymous` or `system`. */
export type PrincipalRef = string;

export type EventMetadata = {
  readonly eventId: string;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly principal: PrincipalRef;
  /** RFC 3339 UTC with milliseconds. */
  readonly time: string;
};

/** An event as a command handler produces it, before it has a place in the log. */
export type NewEvent<TType extends string = string, TData = unknown> = {
  readonly type: TType;
  readonly schemaVersion: number;
  readonly data: TData;
  readonly metadata: EventMetadata;
};

/** An event read back from the log. `revision` is 0-based within the stream; `position` is global and opaque. */
export type RecordedEvent<TType extends string = string, TData = unknown> = NewEvent<TType, TData> & {
  readonly streamId: string;
  readonly revision: number;
  readonly position: string;
};
