import { createHash, createHmac } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import type { S3Settings } from '../document-storage-config.ts'

export interface RecordedS3Request {
  method: string
  /** Path and query as sent, e.g. `/bucket/identity-documents/file_1?x-id=GetObject`. */
  url: string
  headers: IncomingHttpHeaders
}

export interface S3Fake {
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Every request that reached the fake, in order (refused ones too). */
  requests: RecordedS3Request[]
  /** The credentials lose s3:GetObject (a policy edited, a KMS key they may no longer use): every object read answers 403. */
  denyReads: boolean
  close(): Promise<void>
}

export interface S3FakeOptions {
  /**
   * Whether the credentials hold s3:ListBucket. S3 answers a GET or HEAD of
   * a missing key with 404 NoSuchKey only then, and with 403 AccessDenied
   * otherwise (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html,
   * "Permissions"). Off by default, as docs/providers.md advises.
   */
  listBucket?: boolean
}

/**
 * An S3-compatible fake for tests: s3rver (the objects, S3's XML answers
 * and errors) behind a small front that records each request and checks its
 * AWS Signature Version 4 as S3 does, which s3rver itself does not (it only
 * looks the access key id up). A request with an unknown key id gets
 * InvalidAccessKeyId, one signed with another secret SignatureDoesNotMatch,
 * one whose body does not match its signed SHA-256 XAmzContentSHA256Mismatch.
 * Without `listBucket`, a read of a missing key answers 403 AccessDenied, as
 * S3 does (s3rver answers 404 NoSuchKey whatever the rights).
 */
/** The document store's S3 settings that point at `fake` (the `identity-documents/` prefix, path-style addresses, no KMS key), with `overrides`. */
export function s3SettingsFor(fake: S3Fake, overrides: Partial<S3Settings> = {}): S3Settings {
  return {
    bucket: fake.bucket,
    prefix: 'identity-documents/',
    region: fake.region,
    endpoint: fake.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey },
    kmsKeyId: undefined,
    ...overrides,
  }
}

export async function startS3Fake(options: S3FakeOptions = {}): Promise<S3Fake> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pactum-s3-'))
  const bucket = 'pactum-documents'
  const region = 'eu-central-1'
  // s3rver's built-in key pair; its front here checks the signature with the same secret.
  const accessKeyId = 'S3RVER'
  const secretAccessKey = 'S3RVER'
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
  const backend = (await s3rver.run()) as AddressInfo
  const requests: RecordedS3Request[] = []

  const front: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers }
      requests.push(recorded)
      const refuse = (refusal: { status: number; code: string; message: string }) => {
        res.writeHead(refusal.status, { 'content-type': 'application/xml' })
        res.end(
          req.method === 'HEAD'
            ? undefined
            : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`,
        )
      }
      const refusal = checkSignature(recorded, body, { accessKeyId, secretAccessKey, region })
      if (refusal) return refuse(refusal)
      const objectRead = (req.method === 'GET' || req.method === 'HEAD') && isObjectPath(recorded.url, bucket)
      if (objectRead && fake.denyReads) return refuse(accessDenied)
      const forward = httpRequest(
        { host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          // s3rver's 404 for a missing key is what S3 answers only to credentials that may list the bucket.
          if (objectRead && answer.statusCode === 404 && !options.listBucket) {
            answer.resume()
            return refuse(accessDenied)
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forward.on('error', (error) => res.destroy(error))
      forward.end(body)
    })
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const { port } = front.address() as AddressInfo

  const fake: S3Fake = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    requests,
    denyReads: false,
    close: async () => {
      await new Promise<void>((resolve, reject) => front.close((error) => (error ? reject(error) : resolve())))
      await s3rver.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
  return fake
}

const accessDenied = { status: 403, code: 'AccessDenied', message: 'Access Denied' }

/** `/bucket/key…` (path-style, as the tests address the fake), not the bucket itself; a missing bucket stays 404 NoSuchBucket, as on S3. */
function isObjectPath(url: string, bucket: string): boolean {
  const path = url.split('?')[0] ?? ''
  return path.startsWith(`/${bucket}/`) && path.length > bucket.length + 2
}

/**
 * AWS Signature Version 4 on the Authorization header, as S3 computes it
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
 * S3's canonical URI is the path as sent, not encoded again.
 */
function checkSignature(
  request: RecordedS3Request,
  body: Buffer,
  account: { accessKeyId: string; secretAccessKey: string; region: string },
): { status: number; code: string; message: string } | undefined {
  const authorization = header(request.headers, 'authorization')
  const parsed =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    )
  if (!parsed) return { status: 403, code: 'AccessDenied', message: 'Requests must be signed with AWS4-HMAC-SHA256' }
  const [, keyId, day, region, signedHeaders, signature] = parsed as unknown as [string, string, string, string, string, string]
  if (keyId !== account.accessKeyId)
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' }
  if (region !== account.region)
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `the region '${region}' is wrong; expecting '${account.region}'` }
  const payloadHash = header(request.headers, 'x-amz-content-sha256')
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== createHash('sha256').update(body).digest('hex')) {
    return {
      status: 400,
      code: 'XAmzContentSHA256Mismatch',
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    }
  }
  const amzDate = header(request.headers, 'x-amz-date')
  const [pathPart, queryPart = ''] = request.url.split('?', 2) as [string, string?]
  const canonicalQuery = queryPart
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name, value = ''] = pair.split('=', 2) as [string, string?]
      return [encodeRfc3986(decodeURIComponent(name)), encodeRfc3986(decodeURIComponent(value))] as const
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${header(request.headers, name).trim().replace(/\s+/g, ' ')}\n`)
    .join('')
  const canonicalRequest = [request.method, pathPart, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n')
  const scope = `${day}/${region}/s3/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n')
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${account.secretAccessKey}`, day), region), 's3'), 'aws4_request')
  if (createHmac('sha256', signingKey).update(stringToSign).digest('hex') !== signature) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    }
  }
  return undefined
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name]
  return Array.isArray(value) ? value.join(',') : (value ?? '')
}

function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
}
