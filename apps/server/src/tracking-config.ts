/**
 * Parcel tracking (part of config.ts): the sandbox tracker unless
 * TRACKING_API_KEY is set, then an AfterShip-style tracking API. Problems
 * name their variable and never repeat a value (the API key and webhook
 * secret stay out of the logs).
 */
/** The API version the adapter's request and answer shapes are written for (adapters/carrier-tracker/aftership-api.ts). */
export const trackingApiVersion = '2026-07'
export const defaultTrackingApiUrl = `https://api.aftership.com/tracking/${trackingApiVersion}`

export type TrackingConfig =
  | { provider: 'sandbox'; inTransitSeconds: number; deliveredSeconds: number }
  | {
      provider: 'aftership'
      apiKey: string
      webhookSecret: string
      /** The API's versioned base, without a trailing slash. */
      apiUrl: string
      /** A parcel not delivered and not heard of for this long is asked about (a missed webhook). */
      pollMinutes: number
    }

const aggregatorOnlyNames = ['TRACKING_WEBHOOK_SECRET', 'TRACKING_API_URL', 'TRACKING_POLL_MINUTES'] as const
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])
/** What the aggregators' keys and secrets look like: printable, no spaces (a pasted newline is a mistake). */
const tokenPattern = /^[\x21-\x7e]{8,200}$/

export function loadTrackingConfig(
  env: Record<string, string | undefined>,
  sandbox: { inTransitSeconds: number; deliveredSeconds: number },
): { tracking?: TrackingConfig; problems: string[] } {
  const problems: string[] = []
  if (!env.TRACKING_API_KEY) {
    problems.push(
      ...aggregatorOnlyNames.filter((name) => env[name]).map((name) => `${name}: only used with TRACKING_API_KEY, which is not set`),
    )
    return problems.length > 0 ? { problems } : { tracking: { provider: 'sandbox', ...sandbox }, problems }
  }
  if (!tokenPattern.test(env.TRACKING_API_KEY)) problems.push('TRACKING_API_KEY: expected 8–200 printable characters without spaces')
  if (!env.TRACKING_WEBHOOK_SECRET)
    problems.push('TRACKING_WEBHOOK_SECRET: required when TRACKING_API_KEY is set (the secret that signs the webhooks)')
  else if (!tokenPattern.test(env.TRACKING_WEBHOOK_SECRET))
    problems.push('TRACKING_WEBHOOK_SECRET: expected 8–200 printable characters without spaces')
  const apiUrl = trackingApiUrl(env.TRACKING_API_URL, problems)
  let pollMinutes = 60
  if (env.TRACKING_POLL_MINUTES) {
    const value = Number(env.TRACKING_POLL_MINUTES)
    if (Number.isInteger(value) && value >= 1 && value <= 10_080) pollMinutes = value
    else problems.push('TRACKING_POLL_MINUTES: expected a whole number of minutes from 1 to 10080')
  }
  if (problems.length > 0 || !env.TRACKING_WEBHOOK_SECRET) return { problems }
  return {
    tracking: { provider: 'aftership', apiKey: env.TRACKING_API_KEY, webhookSecret: env.TRACKING_WEBHOOK_SECRET, apiUrl, pollMinutes },
    problems,
  }
}

function trackingApiUrl(value: string | undefined, problems: string[]): string {
  if (!value) return defaultTrackingApiUrl
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push('TRACKING_API_URL: not a URL')
    return defaultTrackingApiUrl
  }
  if (url.username || url.password) problems.push('TRACKING_API_URL: no credentials in the URL')
  else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    problems.push('TRACKING_API_URL: must be https:// (plain http only for localhost)')
  } else if (url.search || url.hash) problems.push('TRACKING_API_URL: no query or fragment')
  // Another version has other shapes (2024-04 wraps bodies in `tracking`): a path naming one is a mistake, not a choice.
  const version = /\/tracking\/(\d{4}-\d{2})(\/|$)/.exec(url.pathname)?.[1]
  if (version && version !== trackingApiVersion) {
    problems.push(`TRACKING_API_URL: names API version ${version}; Pactum speaks ${trackingApiVersion}`)
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}
