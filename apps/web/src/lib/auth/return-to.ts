/**
 * Only same-origin paths may be returned to after sign-in: the value comes
 * back through the provider's redirect and must not become an open redirect.
 */
export function safeReturnTo(value: unknown, fallback = '/transactions'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback
  }
  return value
}
