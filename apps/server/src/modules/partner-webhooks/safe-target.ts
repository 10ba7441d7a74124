import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook may not go (SSRF): loopback, private, link-local (the
 * cloud metadata service at 169.254.169.254), carrier-grade NAT, unique
 * local and unspecified addresses, and the same written as IPv6. Checked on the
 * address the name resolves to, at the moment of each connection (the
 * `lookup` of the request), so a name that resolves elsewhere tomorrow, or
 * differently the second time, is caught too.
 */
// Two lists: a BlockList checks an IPv4 address against its IPv6 rules too (::ffff:0:0/96 would take them all).
const forbiddenV4 = new BlockList()
const forbiddenV6 = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbiddenV4.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  forbiddenV6.addSubnet(network, prefix, 'ipv6')
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return forbiddenV4.check(address, 'ipv4')
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped) return forbiddenV4.check(mapped, 'ipv4')
  return forbiddenV6.check(address, 'ipv6')
}

export class ForbiddenTargetError extends Error {
  readonly code = 'forbidden_target'
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void

/**
 * A `lookup` for http(s).request that refuses a forbidden address, unless
 * private targets are allowed (WEBHOOK_ALLOW_PRIVATE). `resolve` is the
 * system's DNS (a test gives its own).
 */
export function safeLookup(allowPrivate: boolean, resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const list = addresses as LookupAddress[]
      const refused = list.find((entry) => isForbiddenAddress(entry.address))
      if (refused && !allowPrivate) {
        return callback(new ForbiddenTargetError(`${hostname} resolves to ${refused.address}, a private or local address`), [])
      }
      if (options.all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(new Error(`${hostname} resolves to no address`), [])
      return callback(null, first.address, first.family)
    })
  }
}
