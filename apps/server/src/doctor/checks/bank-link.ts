import { PlaidBankLink } from '../../adapters/bank-link/plaid.ts'
import type { BankLinkConfig } from '../../bank-link-config.ts'
import type { PaymentsConfig } from '../../config.ts'
import { answered, type Check, ok, type ProviderReport, warning } from '../report.ts'

/**
 * US bank accounts: the sandbox bank link (its stand-in link screen links a
 * test account; sellers may also type their numbers), or Plaid, asked for a
 * link token: that proves the keys, the environment and the Auth product
 * (the token expires unused after 4 hours).
 */
export async function checkBankLink(bankLink: BankLinkConfig, payments: Pick<PaymentsConfig, 'provider'>): Promise<ProviderReport> {
  if (bankLink.provider === 'sandbox') {
    return {
      service: 'bank accounts',
      mode: 'sandbox',
      summary: 'the sandbox bank link: its link screen links a test account, or sellers type their numbers (docs/sandbox.md)',
      checks: [],
    }
  }
  const plaid = new PlaidBankLink({ clientId: bankLink.clientId, secret: bankLink.secret, apiUrl: bankLink.apiUrl })
  const checks: Check[] = [
    ok('PLAID_CLIENT_ID, PLAID_SECRET', `present (${bankLink.environment} keys expected)`),
    await answered('the API answers', async () => {
      await plaid.createLinkToken({ userId: 'pactum-doctor', now: new Date() })
      return 'a link token was issued (Auth, US accounts)'
    }),
    payments.provider === 'stripe'
      ? ok('payouts', 'bank-account tokens go to Stripe: Plaid’s Stripe integration must be on in Plaid’s dashboard')
      : warning('payouts', 'the sandbox payment provider takes Plaid’s Stripe tokens as test accounts: no real payouts'),
  ]
  return { service: 'bank accounts', mode: 'real', summary: `Plaid (${bankLink.environment}) at ${bankLink.apiUrl}`, checks }
}
