import { type CurrencyCode, currenciesForUser, type PaymentMethod, paymentMethodsForUser } from '@pactum/domain/currencies'
import type { Config } from '../../config.ts'
import type { CurrentUser } from '../sign-in/users.ts'

/**
 * The currencies and payment methods this user may transact in (DESIGN §2).
 * An unverified e-mail counts as ordinary, whatever its domain: otherwise
 * anyone could register a company address and widen their own limits.
 */
export function userOffer(config: Config, user: CurrentUser): { currencies: CurrencyCode[]; paymentMethods: PaymentMethod[] } {
  const domains = {
    email: user.emailVerified ? user.email : '',
    companyDomain: config.emailDomains.company,
    partnerDomains: config.emailDomains.partners,
  }
  return { currencies: currenciesForUser(domains), paymentMethods: [...paymentMethodsForUser(domains)] }
}
