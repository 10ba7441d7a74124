import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'

/**
 * A WebAuthn authenticator in software, for server tests of the passkey
 * ceremonies (the browser tests use Chromium's virtual authenticator). It
 * builds what the WebAuthn specification says an authenticator returns:
 * "none" attestation, an ES256 key as a COSE_Key, authenticator data with
 * the RP ID hash, flags and counter, and an ECDSA signature over the
 * authenticator data and the client data's hash. The server checks all of
 * it with @simplewebauthn/server, so a mistake here fails the tests rather
 * than hiding one.
 */

type Cbor = number | string | Uint8Array | Map<number, Cbor> | { [key: string]: Cbor }

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 256) return Buffer.from([(major << 5) | 24, length])
  if (length < 65_536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff])
  throw new Error('too long for this encoder')
}

/** The few CBOR types WebAuthn uses: integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  const entries: [Cbor, Cbor][] = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16)
  private readonly privateKey: KeyObject
  private readonly publicJwk: { x: string; y: string }
  private counter = 0
  private userHandle = ''

  private readonly rp: { id: string; origin: string }

  constructor(rp: { id: string; origin: string }) {
    this.rp = rp
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.privateKey = privateKey
    const jwk = publicKey.export({ format: 'jwk' })
    this.publicJwk = { x: jwk.x!, y: jwk.y! }
  }

  private authenticatorData(flags: number, attested?: Buffer): Buffer {
    this.counter += 1
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(this.counter)
    return Buffer.concat([sha256(this.rp.id), Buffer.from([flags]), counter, ...(attested ? [attested] : [])])
  }

  /** The client data both ceremonies sign over: what was asked, by which origin (the relying party's unless a test says otherwise). */
  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin?: string): string {
    return JSON.stringify({ type, challenge, origin: origin ?? this.rp.origin, crossOrigin: false })
  }

  /** This authenticator's credential around one ceremony's response, as the browser hands it to the page. */
  private asCredential<Response>(response: Response) {
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key' as const,
      response,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** The answer to `navigator.credentials.create(options)`, as RegistrationResponseJSON. */
  create(options: { challenge: string; user: { id: string } }, overrides: { origin?: string } = {}) {
    this.userHandle = options.user.id
    const coseKey = new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ])
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cbor(coseKey)])
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = this.authenticatorData(0x45, attested)
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides.origin)
    return this.asCredential({
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal'],
    })
  }

  /** The answer to `navigator.credentials.get(options)`, as AuthenticationResponseJSON. */
  get(options: { challenge: string }, overrides: { origin?: string; counter?: number; userVerified?: boolean } = {}) {
    if (overrides.counter !== undefined) this.counter = overrides.counter - 1
    // User present (0x01) and, unless told otherwise, user verified (0x04): a PIN, a fingerprint or a face.
    const authData = this.authenticatorData(overrides.userVerified === false ? 0x01 : 0x05)
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey)
    return this.asCredential({
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: this.userHandle,
    })
  }
}

/**
 * A passkey added from the Account page's API, as the user's browser adds it
 * (options asked with the current password, then the new credential): the
 * authenticator that holds it, to sign in with.
 */
export async function addPasskey(
  app: FastifyInstance,
  headers: Record<string, string>,
  currentPassword: string,
  rp: { id: string; origin: string },
): Promise<SoftwareAuthenticator> {
  const options = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/me/passkeys/registration_options',
      headers,
      payload: { current_password: currentPassword },
    })
  ).json()
  const authenticator = new SoftwareAuthenticator(rp)
  const added = await app.inject({
    method: 'POST',
    url: '/api/v1/me/passkeys',
    headers,
    payload: { name: 'Phone', response: authenticator.create(options) },
  })
  expect(added.statusCode, added.body).toBe(201)
  return authenticator
}
