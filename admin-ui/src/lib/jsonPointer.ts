/** JSON Pointer (RFC 6901) helpers. */

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapePointerSegment(String(segment))}`).join('');
}

/** The pointer one level up ('' stays ''). */
export function parentPointer(pointer: string): string {
  const at = pointer.lastIndexOf('/');
  return at <= 0 ? '' : pointer.slice(0, at);
}
