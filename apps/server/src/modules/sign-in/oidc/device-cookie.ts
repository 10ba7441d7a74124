import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { readCookie } from './translations.ts'

/**
 * The device cookie: set when a browser signs in to an account, it names the
 * account and a random device id, signed with HMAC-SHA256 under a server
 * secret (server_secrets). A browser that carries a valid one for the
 * address it signs in with counts its failures under its own device key
 * (sign-in-throttle.ts), so failures from elsewhere never slow it. It grants
 * nothing else: the password is still checked.
 */
export const deviceCookieName = 'pactum_device'
/** Browsers keep a cookie at most 400 days; this one is renewed at every sign-in. */
const maxAgeSeconds = 400 * 24 * 60 * 60
const version = 'v1'

function signature(secret: string, accountId: string, deviceId: string): Buffer {
  return createHmac('sha256', secret).update(`${version}.${accountId}.${deviceId}`).digest()
}

/** The device id of a valid cookie for `accountId`, else undefined (absent, forged, or another account's). */
export function readDeviceCookie(secret: string, cookieHeader: string | undefined, accountId: string): string | undefined {
  const value = readCookie(cookieHeader, deviceCookieName)
  const [tag, account, deviceId, mac] = value?.split('.') ?? []
  if (tag !== version || account !== accountId || !deviceId || !/^[A-Za-z0-9_-]{22}$/.test(deviceId) || !mac) return undefined
  const expected = signature(secret, accountId, deviceId)
  const given = Buffer.from(mac, 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : undefined
}

/** The Set-Cookie header for a browser that just signed in: its device id kept when it had one for this account. */
export function deviceCookie(options: {
  secret: string
  accountId: string
  deviceId?: string | undefined
  path: string
  secure: boolean
}): string {
  const deviceId = options.deviceId ?? randomBytes(16).toString('base64url')
  const mac = signature(options.secret, options.accountId, deviceId).toString('base64url')
  const value = `${version}.${options.accountId}.${deviceId}.${mac}`
  return `${deviceCookieName}=${value}; Path=${options.path || '/'}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
