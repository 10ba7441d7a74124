/**
 * The error codes loading a page can answer: the shell's and the lists' reads
 * (a failed call, a refused session, a bad page of a list, too many calls, the
 * server down). Their sentences come with the first screen's dictionary
 * (i18n/dictionary-sections.ts), and every one has its own (error-message.ts).
 */
export const pageLoadErrorCodes = [
  'network_error',
  'unexpected_response',
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'not_found',
  'invalid_after_id',
  'invalid_limit',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const
