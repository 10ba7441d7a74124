import { isIP } from 'node:net'

/**
 * Which hops in front of the server may say who the client is
 * (X-Forwarded-For/-Proto/-Host). `true` believes every hop, so the leftmost
 * address a client wrote itself becomes its IP: fine only when the one proxy
 * in front overwrites the header. A list of the proxies' addresses is the
 * safe form: the server walks X-Forwarded-For from the right and stops at the
 * first address that is not a trusted proxy, so whatever a client put in
 * front of that is ignored, and rate limits count the real client.
 */
export type TrustProxy = boolean | string[]

/** The names proxy-addr (Fastify's trustProxy) knows for address ranges. */
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal'])

export function parseTrustProxy(value: string): { setting: TrustProxy } | { problem: string } {
  if (value === 'true') return { setting: true }
  if (value === 'false') return { setting: false }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const bad = entries.filter((entry) => !namedRanges.has(entry) && !isAddressOrRange(entry))
  if (entries.length === 0 || bad.length > 0) {
    return {
      problem: `true, false, or the proxies' addresses (IP, CIDR, loopback, linklocal, uniquelocal), comma-separated; not ${bad.join(', ') || 'empty'}`,
    }
  }
  return { setting: entries }
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/')
  const family = isIP(address ?? '')
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/** Whether any proxy is trusted at all (then X-Forwarded-Proto tells how the browser came). */
export function behindTrustedProxy(setting: TrustProxy): boolean {
  return setting === true || (Array.isArray(setting) && setting.length > 0)
}
