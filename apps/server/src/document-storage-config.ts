import { z } from 'zod'

/**
 * Where identity documents are kept (part of config.ts): local files under
 * DATA_DIR unless S3_BUCKET is set, and how long they are kept once the
 * provider's check has a result. Problems name their variable and never
 * repeat a value (the secret key, and even the access key id, stay out of
 * the logs).
 */

export interface S3Settings {
  bucket: string
  /** Prepended to every key; empty or ending with '/'. */
  prefix: string
  region: string
  /** An S3-compatible service (MinIO, Ceph, R2, …); AWS's own endpoint when undefined. */
  endpoint: string | undefined
  forcePathStyle: boolean
  /** Undefined: the SDK's default chain (instance role, web identity, AWS_* variables, shared files). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** SSE-KMS with this key; SSE-S3 (AES256) when undefined. */
  kmsKeyId: string | undefined
}

export type DocumentStorageConfig = { store: 'local' } | { store: 's3'; s3: S3Settings }

export interface DocumentsConfig {
  storage: DocumentStorageConfig
  /** Days a document is kept after its check has a result (0: deleted at once). */
  retentionDays: number
}

const s3OnlyNames = [
  'S3_PREFIX',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_KMS_KEY_ID',
] as const

/** S3's rules for new bucket names: 3–63 lower-case letters, digits, '.' and '-', starting and ending with a letter or digit. */
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const regionPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/
/** Like a document key (document-store/port.ts), but ending with '/'. */
const prefixPattern = /^([A-Za-z0-9][A-Za-z0-9_-]*\/)*$/
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])
const retentionSchema = z.coerce.number().int().min(0).max(3650)

export function loadDocumentsConfig(env: Record<string, string | undefined>): { documents?: DocumentsConfig; problems: string[] } {
  const problems: string[] = []
  let retentionDays = 0
  if (env.DOCUMENT_RETENTION_DAYS) {
    const parsed = retentionSchema.safeParse(env.DOCUMENT_RETENTION_DAYS)
    if (parsed.success) retentionDays = parsed.data
    else problems.push('DOCUMENT_RETENTION_DAYS: expected a whole number of days from 0 to 3650')
  }
  if (!env.S3_BUCKET) {
    problems.push(...s3OnlyNames.filter((name) => env[name]).map((name) => `${name}: only used with S3_BUCKET, which is not set`))
    return problems.length > 0 ? { problems } : { documents: { storage: { store: 'local' }, retentionDays }, problems }
  }

  if (!bucketPattern.test(env.S3_BUCKET)) problems.push('S3_BUCKET: not a bucket name (3–63 lower-case letters, digits, dots and hyphens)')
  const prefix = env.S3_PREFIX ?? 'identity-documents/'
  if (!prefixPattern.test(prefix))
    problems.push("S3_PREFIX: segments of letters, digits, _ and - each followed by '/' (e.g. identity-documents/)")
  if (!env.S3_REGION) problems.push('S3_REGION: required when S3_BUCKET is set (us-east-1 for most S3-compatible services)')
  else if (!regionPattern.test(env.S3_REGION)) problems.push('S3_REGION: not a region name (e.g. eu-central-1)')
  const endpoint = env.S3_ENDPOINT ? endpointOf(env.S3_ENDPOINT) : {}
  if (endpoint.problem) problems.push(endpoint.problem)
  const forcePathStyle = env.S3_FORCE_PATH_STYLE || 'false'
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') problems.push('S3_FORCE_PATH_STYLE: expected true or false')
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      env.S3_ACCESS_KEY_ID
        ? 'S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID'
        : 'S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY',
    )
  }
  if (problems.length > 0) return { problems }
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : undefined
  const s3: S3Settings = {
    bucket: env.S3_BUCKET,
    prefix,
    region: env.S3_REGION!,
    endpoint: endpoint.url,
    forcePathStyle: forcePathStyle === 'true',
    credentials,
    kmsKeyId: env.S3_KMS_KEY_ID || undefined,
  }
  return { documents: { storage: { store: 's3', s3 }, retentionDays }, problems }
}

/**
 * Identity documents cross the network only over TLS; plain http is
 * accepted for a service on this machine (a MinIO for development).
 */
function endpointOf(value: string): { url?: string; problem?: string } {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { problem: 'S3_ENDPOINT: not a URL (expected https://host[:port])' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'S3_ENDPOINT: the scheme must be https://' }
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname))
    return { problem: 'S3_ENDPOINT: must be https:// (plain http only for localhost)' }
  if (url.username || url.password)
    return { problem: 'S3_ENDPOINT: no credentials in the URL; use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY' }
  if (url.search || url.hash) return { problem: 'S3_ENDPOINT: no query or fragment' }
  return { url: url.toString().replace(/\/+$/, '') }
}
