/**
 * Defines `name` as an accessor on a request/response prototype once (express gives each app's requests and
 * responses their own prototypes). Per-request state then lives in plain properties the accessor reads: an accessor
 * on the shared prototype, unlike one defined on each object, keeps every request in the same hidden class.
 */
export function defineOnPrototype(proto: object, name: string, accessor: { get(this: never): unknown; set(this: never, value: never): void }): void {
  if (Object.hasOwn(proto, name)) return;
  Object.defineProperty(proto, name, { configurable: true, enumerable: true, get: accessor.get, set: accessor.set });
}
