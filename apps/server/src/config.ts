import path from 'node:path'
import { z } from 'zod'

/**
 * Every setting comes from the environment through this one module, checked
 * once at start-up; a bad configuration fails listing every problem at once.
 * Nothing else reads process.env.
 */
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value)
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional())
const commaList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
)

const envSchema = z
  .object({
    PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    TRUST_PROXY: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
    OIDC_ISSUER: z.preprocess(emptyAsUndefined, z.url().optional()),
    OIDC_CLIENT_ID: optionalString,
    OIDC_AUDIENCE: optionalString,
    ADMIN_EMAILS: commaList,
    SUPPORT_EMAIL: z.preprocess(emptyAsUndefined, z.email().default('support@pactum.example')),
  })

export type OidcConfig =
  | { mode: 'embedded'; issuer: string; clientId: string; audience: string }
  | { mode: 'external'; issuer: string; clientId: string; audience: string }

export interface Config {
  port: number
  host: string
  publicUrl: string
  dataDir: string
  databaseUrl: string | undefined
  logLevel: string
  trustProxy: boolean
  oidc: OidcConfig
  adminEmails: string[]
  supportEmail: string
}

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** The embedded sign-in's web client and API audience. */
export const embeddedClientId = 'pactum-app'
export const embeddedAudience = 'pactum-api'

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env)
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`)
  problems.push(...externalOidcProblems(env))
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems)
  const values = parsed.data
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '')
  const oidc: OidcConfig =
    values.OIDC_ISSUER && values.OIDC_CLIENT_ID && values.OIDC_AUDIENCE
      ? {
          mode: 'external',
          issuer: values.OIDC_ISSUER,
          clientId: values.OIDC_CLIENT_ID,
          audience: values.OIDC_AUDIENCE,
        }
      : { mode: 'embedded', issuer: `${publicUrl}/oidc`, clientId: embeddedClientId, audience: embeddedAudience }
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY === 'true',
    oidc,
    adminEmails: values.ADMIN_EMAILS,
    supportEmail: values.SUPPORT_EMAIL,
  }
}

/** The external sign-in needs all three of its variables, or none. */
function externalOidcProblems(env: Record<string, string | undefined>): string[] {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_AUDIENCE'] as const
  const missing = names.filter((name) => !env[name])
  if (missing.length === 0 || missing.length === names.length) return []
  return missing.map((name) => `${name}: required when any of ${names.join(', ')} is set`)
}
