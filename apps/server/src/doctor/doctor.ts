import type { Config } from '../config.ts'
import { checkBankLink } from './checks/bank-link.ts'
import { checkDatabase } from './checks/database.ts'
import { checkDocuments } from './checks/documents.ts'
import { checkMail } from './checks/mail.ts'
import { checkPayments } from './checks/payments.ts'
import { checkSignIn } from './checks/sign-in.ts'
import { checkTracking } from './checks/tracking.ts'
import type { ProviderReport } from './report.ts'

/**
 * `npm run cli -- doctor`: every outside piece the configuration selects,
 * sandbox or real, with its checks. The services are asked side by side
 * (each call has its own time limit), and a failure is reported, not thrown.
 */
export async function runDoctor(config: Config): Promise<ProviderReport[]> {
  return Promise.all([
    checkDatabase(config),
    checkSignIn(config.oidc),
    checkPayments(config.payments, { verificationMethod: config.verificationMethod }),
    checkBankLink(config.bankLink, config.payments),
    checkTracking(config.tracking),
    checkMail(config.mail, config.dataDir),
    checkDocuments(config.documents, config.dataDir),
  ])
}
