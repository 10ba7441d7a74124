import type Stripe from 'stripe'
import type { AccountDocumentSide, AccountProfile, AccountRequirement, DocumentSide, PayoutStatus } from './connected-accounts-port.ts'

/** Stripe's accounts in the connected-accounts port's shape, and back: pure functions, no calls. */

/** The EEA, one region for Stripe's payouts (EU, Iceland, Liechtenstein, Norway). */
const eeaCountries = new Set([
  'at',
  'be',
  'bg',
  'hr',
  'cy',
  'cz',
  'dk',
  'ee',
  'fi',
  'fr',
  'de',
  'gr',
  'hu',
  'ie',
  'it',
  'lv',
  'lt',
  'lu',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'si',
  'es',
  'se',
  'is',
  'li',
  'no',
])

/**
 * Stripe pays out across borders between regions (the US, the UK, the EEA,
 * Canada, Switzerland) only to accounts under the *recipient* service
 * agreement; within the platform's own region the full agreement applies.
 * Elsewhere no cross-border payout exists: Stripe refuses the account.
 */
export function serviceAgreementFor(accountCountry: string, platformCountry: string): 'full' | 'recipient' {
  const region = (country: string) => (eeaCountries.has(country.toLowerCase()) ? 'eea' : country.toLowerCase())
  return region(accountCountry) === region(platformCountry) ? 'full' : 'recipient'
}

/** Stripe's requirement names (`individual.verification.document`, …) as the payout requirements screen knows them. */
const requirementNames: Record<string, AccountRequirement> = {
  'individual.verification.document': 'identity_document',
  'individual.verification.additional_document': 'additional_identity_document',
  'individual.ssn_last_4': 'ssn_last_4',
  'individual.id_number': 'id_number',
  external_account: 'external_account',
  'individual.first_name': 'name',
  'individual.last_name': 'name',
  'individual.phone': 'phone',
  'tos_acceptance.date': 'tos_acceptance',
  'tos_acceptance.ip': 'tos_acceptance',
}

/** The rest (`individual.political_exposure`, `business_profile.mcc`, …) is asked on Stripe's own onboarding page. */
export function requirementName(stripeName: string): AccountRequirement {
  if (stripeName.startsWith('individual.dob.')) return 'dob'
  if (stripeName.startsWith('individual.address.')) return 'address'
  return requirementNames[stripeName] ?? 'provider_onboarding'
}

/**
 * What every seller is, to Stripe: a private individual selling their own
 * things through Pactum (merchant category 5999, miscellaneous retail),
 * described as such where they have no web page of their own.
 */
const sellerMerchantCategory = '5999'
const sellerProductDescription = 'Private sales of personal items, paid through Pactum escrow'

export function accountUpdate(profile: AccountProfile): Stripe.AccountUpdateParams {
  const { address, dob, tosAcceptance } = profile
  return {
    individual: {
      first_name: profile.firstName,
      last_name: profile.lastName,
      email: profile.email,
      ...(profile.phone ? { phone: profile.phone } : {}),
      ...(dob ? { dob } : {}),
      ...(address
        ? {
            address: {
              line1: address.line1,
              ...(address.line2 ? { line2: address.line2 } : {}),
              city: address.city,
              ...(address.state ? { state: address.state } : {}),
              ...(address.postalCode ? { postal_code: address.postalCode } : {}),
            },
          }
        : {}),
    },
    business_profile: {
      mcc: sellerMerchantCategory,
      ...(profile.businessUrl ? { url: profile.businessUrl } : { product_description: sellerProductDescription }),
    },
    ...(tosAcceptance
      ? {
          tos_acceptance: {
            date: Math.floor(tosAcceptance.date.getTime() / 1000),
            ip: tosAcceptance.ip,
            ...(tosAcceptance.userAgent ? { user_agent: tosAcceptance.userAgent } : {}),
          },
        }
      : {}),
  }
}

type StripeDocument = {
  front: string | Stripe.File | null
  back: string | Stripe.File | null
  details?: string | null
  details_code?: string | null
} | null

/**
 * A side with a file is checked as the individual is: verified when
 * Stripe verified the individual, rejected when Stripe names why
 * (`details_code`; the reason shown is Stripe's sentence, `details`, as
 * the sandbox's is), pending until then.
 */
export function documentSides(document: StripeDocument, status: string | undefined): Record<DocumentSide, AccountDocumentSide> {
  const side = (file: string | Stripe.File | null | undefined): AccountDocumentSide => {
    if (!file) return { status: 'not_uploaded', rejectionReason: null }
    if (status === 'verified') return { status: 'verified', rejectionReason: null }
    if (document?.details_code) return { status: 'rejected', rejectionReason: document.details ?? document.details_code }
    return { status: 'pending', rejectionReason: null }
  }
  return { front: side(document?.front), back: side(document?.back) }
}

/** Stripe's own five (Payouts.d.ts: `paid`, `pending`, `in_transit`, `canceled`, `failed`); anything newer reads as still on its way. */
export function payoutStatus(status: string): PayoutStatus {
  return status === 'paid' || status === 'pending' || status === 'failed' || status === 'canceled' ? status : 'in_transit'
}

export function extensionOf(contentType: string): string {
  return contentType === 'application/pdf' ? '.pdf' : contentType === 'image/png' ? '.png' : '.jpg'
}
