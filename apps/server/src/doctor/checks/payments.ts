import type { PaymentsConfig } from '../../config.ts'
import { answered, type Check, failed, ok, type ProviderReport, warning } from '../report.ts'

const defaultStripeApiUrl = 'https://api.stripe.com'
const timeoutMs = 10_000

type StripeMode = 'test' | 'live'

/**
 * Payments: the sandbox, or Stripe when STRIPE_SECRET_KEY is set. For
 * Stripe, the three keys' forms and that they belong to one mode, then the
 * API itself: the balance (the key works, and its mode), the connected
 * accounts (Connect is enabled on the platform), the balance transactions
 * (the daily reconciliation), disputes and files (card disputes and their
 * evidence) and, with Stripe Identity chosen, its verification sessions.
 * Only reads: a restricted key's write access to disputes and files is
 * named, not tried (nothing is uploaded to a live account).
 */
export async function checkPayments(
  payments: PaymentsConfig,
  options: { verificationMethod: 'legacy' | 'stripe_identity' },
): Promise<ProviderReport> {
  if (payments.provider === 'sandbox') {
    const checks: Check[] = [
      ok(
        'webhooks',
        payments.webhookSecret ? 'signed with SANDBOX_WEBHOOK_SECRET' : 'signed with a secret generated once and kept in the database',
      ),
    ]
    if (modeOfKey(payments.publishableKey, 'pk')) {
      checks.push(
        warning(
          'STRIPE_PUBLISHABLE_KEY',
          'a real Stripe key with the sandbox: the checkout would load Stripe.js for payments the server does not make; unset it, or set STRIPE_SECRET_KEY too',
        ),
      )
    }
    return { service: 'payments', mode: 'sandbox', summary: 'the embedded sandbox provider: no money moves (docs/sandbox.md)', checks }
  }

  const secretMode = modeOfKey(payments.secretKey, 'sk') ?? modeOfKey(payments.secretKey, 'rk')
  const publishableMode = modeOfKey(payments.publishableKey, 'pk')
  const checks: Check[] = [
    secretMode
      ? ok('STRIPE_SECRET_KEY', `a ${secretMode}-mode ${payments.secretKey.startsWith('rk_') ? 'restricted' : 'secret'} key`)
      : failed('STRIPE_SECRET_KEY', 'not a Stripe secret key (sk_test_…, sk_live_…, or a restricted rk_…)'),
    !publishableMode
      ? failed('STRIPE_PUBLISHABLE_KEY', 'not a Stripe publishable key (pk_test_… or pk_live_…)')
      : secretMode && publishableMode !== secretMode
        ? failed(
            'STRIPE_PUBLISHABLE_KEY',
            `a ${publishableMode}-mode key beside a ${secretMode}-mode secret key: both must come from the same mode`,
          )
        : ok('STRIPE_PUBLISHABLE_KEY', `a ${publishableMode}-mode key`),
    // The platform endpoint's and the Connect endpoint's secrets may both be given, comma-separated (stripe-webhook.ts).
    payments.webhookSecret.split(',').every((secret) => /^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret.trim()))
      ? ok('STRIPE_WEBHOOK_SECRET', 'present (whsec_…)')
      : failed('STRIPE_WEBHOOK_SECRET', 'not a webhook signing secret (whsec_…, shown with the endpoint in the Dashboard)'),
  ]
  if (secretMode) {
    // STRIPE_API_URL (tests, proxies) as the adapter uses it; Stripe's own API otherwise.
    const baseUrl = payments.api ? `${payments.api.protocol}://${payments.api.host}:${payments.api.port}` : defaultStripeApiUrl
    const api = stripeGetter(baseUrl, payments.secretKey)
    checks.push(
      await answered('the API answers', async () => {
        const balance = (await api('/v1/balance')) as { livemode?: unknown }
        const answeredMode = balance.livemode === true ? 'live' : 'test'
        if (answeredMode !== secretMode) throw new Error(`the key is ${secretMode}-mode but the API answered in ${answeredMode} mode`)
        return `the balance was read in ${answeredMode} mode`
      }),
      await answered('Connect', async () => {
        await api('/v1/accounts?limit=1')
        return 'connected accounts can be listed (Connect is enabled for this platform)'
      }),
    )
    const restricted = payments.secretKey.startsWith('rk_')
    checks.push(
      await readable(api, 'Balance transactions', '/v1/balance_transactions?limit=1', {
        ok: 'balance transactions can be listed (the daily reconciliation reads them)',
        grant:
          'the key may not list balance transactions, which the daily reconciliation reads: grant it Read on Balance transaction sources and on Charges',
      }),
      await readable(api, 'Disputes', '/v1/disputes?limit=1', {
        ok: `card disputes can be listed${restricted ? '; answering one (evidence, acceptance) needs Write on Disputes as well' : ''}`,
        grant: 'the key may not read card disputes: grant it Write on Disputes (they are read, answered with evidence and accepted)',
      }),
      await readable(api, 'Files', '/v1/files?limit=1', {
        ok: `files can be listed${restricted ? '; dispute evidence is uploaded as a file (purpose dispute_evidence), which needs Write on Files as well (not tried: nothing is uploaded)' : ''}`,
        grant: 'the key may not read files: grant it Write on Files (dispute evidence is uploaded as a file, purpose dispute_evidence)',
      }),
    )
    if (options.verificationMethod === 'stripe_identity') {
      checks.push(
        await answered('Stripe Identity', async () => {
          await api('/v1/identity/verification_sessions?limit=1')
          return 'verification sessions can be listed'
        }),
      )
    }
  }
  return { service: 'payments', mode: 'real', summary: `Stripe${secretMode ? ` (${secretMode} mode)` : ''}`, checks }
}

function modeOfKey(key: string, prefix: 'sk' | 'rk' | 'pk'): StripeMode | undefined {
  const match = new RegExp(`^${prefix}_(test|live)_[A-Za-z0-9]{8,}$`).exec(key)
  return match?.[1] as StripeMode | undefined
}

/** Stripe's refusal of a call, with its HTTP status. */
class StripeRefusal extends Error {
  readonly status: number

  constructor(status: number, message: string | undefined) {
    super(`Stripe answered ${status}${message ? `: ${message}` : ''}`)
    this.status = status
  }
}

/** A GET on Stripe's API as its documentation shows (Bearer secret key); an error names Stripe's own message, never the key. */
function stripeGetter(baseUrl: string, secretKey: string) {
  return async (path: string): Promise<unknown> => {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      headers: { authorization: `Bearer ${secretKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    })
    const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined
    if (!response.ok) throw new StripeRefusal(response.status, body?.error?.message)
    return body
  }
}

/**
 * A list Pactum reads with the key. A restricted key without the permission
 * gets a 403 (Stripe's message names its `rak_…` permission): the check
 * fails saying what to grant in the Dashboard, with Stripe's answer.
 */
function readable(api: ReturnType<typeof stripeGetter>, name: string, path: string, words: { ok: string; grant: string }): Promise<Check> {
  return answered(name, async () => {
    try {
      await api(path)
    } catch (error) {
      if (error instanceof StripeRefusal && error.status === 403) throw new Error(`${words.grant} (${error.message})`)
      throw error
    }
    return words.ok
  })
}
