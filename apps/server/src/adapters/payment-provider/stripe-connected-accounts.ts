import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../db/schema.ts'
import { callStripe } from './stripe-errors.ts'
import { fromUnixSeconds } from './stripe-mapping.ts'
import { accountUpdate, documentSides, extensionOf, payoutStatus, requirementName, serviceAgreementFor } from './stripe-account-mapping.ts'
import type {
  AccountProfile,
  AccountVerification,
  Balance,
  ConnectedAccount,
  ConnectedAccounts,
  DocumentSide,
  ExternalBankAccountInput,
  IdentityDocumentKind,
  NewConnectedAccountInput,
  Payout,
  TaxIdentifiersInput,
  TransferRecord,
  UploadIdentityDocumentInput,
} from './connected-accounts-port.ts'
import { PaymentProviderError } from './provider-error.ts'

export interface StripeConnectedAccountsOptions {
  stripe: Stripe
  db: Kysely<Database>
  publicUrl: string
}

/**
 * Sellers' connected accounts on Stripe Connect (connected-accounts-port.ts): created on first need
 * (Custom-style: Pactum collects what Stripe asks for, through its own
 * screens or embedded account components), their identity documents,
 * tax identifiers and bank account, and what Stripe says is still due.
 * Which account is a user's is kept in `stripe_connected_accounts`
 * (Stripe cannot search accounts); the account's metadata names the user
 * too. Balance and payouts are read on the connected account itself
 * (`Stripe-Account`), where Stripe keeps them; the transfers it received
 * on the platform, which made them.
 */
export class StripeConnectedAccounts implements ConnectedAccounts {
  readonly #stripe: Stripe
  readonly #options: StripeConnectedAccountsOptions
  /** The platform's own account's country, asked of Stripe once (GET /v1/account). */
  #platformCountry: Promise<string> | undefined

  constructor(options: StripeConnectedAccountsOptions) {
    this.#stripe = options.stripe
    this.#options = options
  }

  /**
   * One account per user: the idempotency key (one per user) gives
   * concurrent first needs the same account within Stripe's 24 hours, and
   * the mapping row's primary key keeps the first one recorded after that.
   */
  async createConnectedAccount(input: NewConnectedAccountInput): Promise<ConnectedAccount> {
    const agreement = serviceAgreementFor(input.country, await this.#platformAccountCountry())
    const account = await callStripe(() =>
      this.#stripe.accounts.create(
        {
          country: input.country.toUpperCase(),
          email: input.email,
          business_type: 'individual',
          capabilities: { transfers: { requested: true } },
          controller: {
            fees: { payer: 'application' },
            losses: { payments: 'application' },
            requirement_collection: 'application',
            stripe_dashboard: { type: 'none' },
          },
          metadata: { user_id: input.userId },
          // Only where it must be: a recipient account's transfers become available a day later.
          ...(agreement === 'recipient' ? { tos_acceptance: { service_agreement: 'recipient' } } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    await this.#options.db
      .insertInto('stripe_connected_accounts')
      .values({ user_id: input.userId, account_id: account.id, email: input.email, country: input.country.toLowerCase() })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute()
    return (await this.findConnectedAccount(input.userId)) as ConnectedAccount
  }

  #platformAccountCountry(): Promise<string> {
    if (this.#platformCountry) return this.#platformCountry
    const asked = callStripe(() => this.#stripe.accounts.retrieveCurrent()).then((platform) => {
      if (!platform.country) throw new Error('Stripe did not say which country the platform account is in')
      return platform.country
    })
    this.#platformCountry = asked
    // Not kept when the question failed: the next account creation asks again.
    asked.catch(() => {
      if (this.#platformCountry === asked) this.#platformCountry = undefined
    })
    return asked
  }

  async findConnectedAccount(userId: string): Promise<ConnectedAccount | null> {
    const row = await this.#options.db
      .selectFrom('stripe_connected_accounts')
      .select(['account_id', 'email', 'country'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row ? { id: row.account_id, email: row.email, country: row.country } : null
  }

  async findAccountOwner(accountId: string): Promise<string | null> {
    const row = await this.#options.db
      .selectFrom('stripe_connected_accounts')
      .select('user_id')
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    return row?.user_id ?? null
  }

  async getBalance(accountId: string): Promise<Balance> {
    const balance = await callStripe(() => this.#stripe.balance.retrieve({}, { stripeAccount: accountId }))
    // Below zero is kept: with Connect the platform carries the account's losses (a refund or dispute after a
    // payout), and Stripe takes them from the account's next payouts. Only empty currencies are left out.
    const money = (entries: Array<{ amount: number; currency: string }>) =>
      entries.filter((entry) => entry.amount !== 0).map((entry) => ({ amount: entry.amount, currency: entry.currency }))
    return { available: money(balance.available), pending: money(balance.pending) }
  }

  /** Read on the platform, which made the transfers: their metadata names the transaction. */
  async listTransfers(accountId: string): Promise<TransferRecord[]> {
    const records: TransferRecord[] = []
    for await (const transfer of this.#stripe.transfers.list({ destination: accountId, limit: 100 })) {
      records.push({
        id: transfer.id,
        amount: transfer.amount - transfer.amount_reversed,
        currency: transfer.currency,
        destinationAccount: accountId,
        transactionId: transfer.metadata.transaction_id ?? transfer.transfer_group ?? '',
        created: new Date(transfer.created * 1000),
      })
      if (records.length >= 1000) break
    }
    return records
  }

  async listPayouts(accountId: string): Promise<Payout[]> {
    const payouts = await callStripe(() =>
      this.#stripe.payouts.list({ limit: 100, expand: ['data.destination'] }, { stripeAccount: accountId }),
    )
    return payouts.data.map((payout) => ({
      id: payout.id,
      amount: payout.amount,
      currency: payout.currency,
      status: payoutStatus(payout.status),
      bankLast4:
        typeof payout.destination === 'object' && payout.destination && 'last4' in payout.destination
          ? (payout.destination.last4 ?? '')
          : '',
      created: fromUnixSeconds(payout.created),
      arrivalDate: fromUnixSeconds(payout.arrival_date),
      failureMessage: payout.failure_message ?? null,
      failureCode: payout.failure_code ?? null,
    }))
  }

  /** Files API upload on the connected account, then attached to its individual's verification; Stripe checks it and says so in `account.updated`. */
  async uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }> {
    const file = await callStripe(() =>
      this.#stripe.files.create(
        {
          // Both of an individual's documents take `identity_document` (Stripe's API reference for
          // `individual.verification.additional_document`); `additional_verification` is for a company's.
          purpose: 'identity_document',
          file: {
            data: Buffer.from(input.bytes),
            name: `${input.document}-${input.side}${extensionOf(input.contentType)}`,
            type: input.contentType,
          },
        },
        { stripeAccount: input.accountId, idempotencyKey: `${input.idempotencyKey}:file` },
      ),
    )
    await this.#attachDocument(input.accountId, input.document, input.side, file.id, `${input.idempotencyKey}:attach`)
    return { fileId: file.id }
  }

  async getAccountVerification(accountId: string): Promise<AccountVerification> {
    const account = await callStripe(() => this.#stripe.accounts.retrieve(accountId))
    const verification = account.individual?.verification
    const documents = {
      identity_document: documentSides(verification?.document ?? null, verification?.status),
      additional_identity_document: documentSides(verification?.additional_document ?? null, verification?.status),
    }
    const due = [...(account.requirements?.currently_due ?? []), ...(account.requirements?.past_due ?? [])]
    const currentlyDue = [...new Set(due.map(requirementName))]
    return { documents, currentlyDue, payoutsEnabled: account.payouts_enabled ?? false }
  }

  async setTaxIdentifiers(input: TaxIdentifiersInput): Promise<void> {
    await callStripe(() =>
      this.#stripe.accounts.update(
        input.accountId,
        {
          individual: {
            ...(input.ssnLast4 !== undefined ? { ssn_last_4: input.ssnLast4 } : {}),
            ...(input.idNumber !== undefined ? { id_number: input.idNumber } : {}),
          },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
  }

  async setExternalBankAccount(input: ExternalBankAccountInput): Promise<void> {
    const created = await callStripe(() =>
      this.#stripe.accounts.createExternalAccount(
        input.accountId,
        {
          external_account: {
            object: 'bank_account',
            country: input.country.toUpperCase(),
            currency: input.currency.toLowerCase(),
            account_number: input.accountNumber,
            // Accounts outside the IBAN countries are named by their bank's code too (sort code, routing number, BSB, …).
            ...(input.routingNumber ? { routing_number: input.routingNumber } : {}),
          },
          default_for_currency: true,
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    await this.#removeOtherBankAccounts(input.accountId, created.id)
  }

  async attachBankAccountToken(input: { accountId: string; token: string; idempotencyKey: string }): Promise<{ last4: string }> {
    if (!/^btok_\w+$/.test(input.token))
      throw new PaymentProviderError('invalid_request', 'Expected a bank-account token (btok_…)', { param: 'external_account' })
    const created = await callStripe(() =>
      this.#stripe.accounts.createExternalAccount(
        input.accountId,
        { external_account: input.token, default_for_currency: true },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    await this.#removeOtherBankAccounts(input.accountId, created.id)
    return { last4: created.last4 ?? '' }
  }

  /** Sellers' accounts are `business_type: individual`: their Person is `account.individual` (Accounts.d.ts, `individual?: Person`). */
  async personOf(accountId: string): Promise<string> {
    const account = await callStripe(() => this.#stripe.accounts.retrieve(accountId))
    const person = account.individual?.id
    if (!person) throw new PaymentProviderError('invalid_state', `The account ${accountId} has no individual`)
    return person
  }

  async createAccountSession(accountId: string): Promise<{ clientSecret: string }> {
    const session = await callStripe(() =>
      this.#stripe.accountSessions.create({
        account: accountId,
        components: { account_onboarding: { enabled: true }, payouts: { enabled: true }, account_management: { enabled: true } },
      }),
    )
    return { clientSecret: session.client_secret }
  }

  async updateAccountProfile(input: { accountId: string; profile: AccountProfile; idempotencyKey: string }): Promise<void> {
    await callStripe(() =>
      this.#stripe.accounts.update(input.accountId, accountUpdate(input.profile), { idempotencyKey: input.idempotencyKey }),
    )
  }

  /** Stripe's hosted onboarding, asking only for what is due now: the rest of the profile comes from Pactum's screens. */
  async createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }> {
    const link = await callStripe(() =>
      this.#stripe.accountLinks.create({
        account: input.accountId,
        type: 'account_onboarding',
        collection_options: { fields: 'currently_due' },
        return_url: this.#absolute(input.returnUrl),
        refresh_url: this.#absolute(input.refreshUrl),
      }),
    )
    return { url: link.url }
  }

  async #attachDocument(
    accountId: string,
    document: IdentityDocumentKind,
    side: DocumentSide,
    fileId: string,
    idempotencyKey: string,
  ): Promise<void> {
    const field = document === 'identity_document' ? 'document' : 'additional_document'
    await callStripe(() =>
      this.#stripe.accounts.update(accountId, { individual: { verification: { [field]: { [side]: fileId } } } }, { idempotencyKey }),
    )
  }

  /** Payouts go to the one account the user gave: older ones are removed (Stripe refuses to remove the default, which the new one now is). */
  async #removeOtherBankAccounts(accountId: string, keep: string): Promise<void> {
    const existing = await callStripe(() => this.#stripe.accounts.listExternalAccounts(accountId, { object: 'bank_account', limit: 100 }))
    for (const other of existing.data) {
      if (other.id === keep) continue
      try {
        await callStripe(() => this.#stripe.accounts.deleteExternalAccount(accountId, other.id))
      } catch (error) {
        // Gone already (a retry), or the default of another currency: neither blocks the new account.
        if (!(error instanceof PaymentProviderError)) throw error
      }
    }
  }

  /** Pactum's pages are named by their path; Stripe takes whole URLs only. */
  #absolute(url: string): string {
    return new URL(url, this.#options.publicUrl).toString()
  }
}
