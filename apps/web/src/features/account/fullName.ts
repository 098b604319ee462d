/** Spec section 2: the name is sent as first and last joined by a space, trimmed. */
export function fullName(first: string, last: string): string {
  return [first.trim(), last.trim()].filter(Boolean).join(' ');
}
