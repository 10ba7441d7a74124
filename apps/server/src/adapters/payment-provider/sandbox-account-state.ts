import type {
  AccountDocumentSide,
  AccountProfile,
  AccountVerification,
  DocumentSide,
  IdentityDocumentKind,
} from './connected-accounts-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import type { SandboxDb, SandboxKernel } from './sandbox-kernel.ts'

/**
 * A sandbox connected account's state as every part of it reads it (the
 * account itself, its documents, its payouts): what is still due, whether
 * payouts are enabled, and the `account.updated` webhook that says so.
 */

const documentKinds: IdentityDocumentKind[] = ['identity_document', 'additional_identity_document']
const sides: DocumentSide[] = ['front', 'back']

/**
 * The sandbox's accounts are individuals, each its own one Person (Stripe:
 * `account.individual`, whose `id` an Identity session's `related_person`
 * names); the Person's id is derived from the account's.
 */
export function personOfSandboxAccount(accountId: string): string {
  return `person_${accountId.replace(/^acct_/, '')}`
}

export async function lockAccount(trx: SandboxDb, accountId: string): Promise<void> {
  const account = await trx.selectFrom('sandbox_accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst()
  if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
}

/** Like Stripe's `requirements.currently_due` and `payouts_enabled`, from the sandbox's own rows. */
export async function accountVerification(trx: SandboxDb, accountId: string): Promise<AccountVerification> {
  const account = await trx
    .selectFrom('sandbox_accounts')
    .select(['id', 'country', 'additional_document_required', 'ssn_last_4_status', 'id_number_status', 'profile'])
    .where('id', '=', accountId)
    .executeTakeFirst()
  if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
  const rows = await trx
    .selectFrom('sandbox_account_documents')
    .select(['document', 'side', 'status', 'rejection_reason'])
    .where('account_id', '=', accountId)
    .execute()
  const documents = Object.fromEntries(
    documentKinds.map((kind) => [
      kind,
      Object.fromEntries(
        sides.map((side): [DocumentSide, AccountDocumentSide] => {
          const row = rows.find((candidate) => candidate.document === kind && candidate.side === side)
          return [
            side,
            row ? { status: row.status, rejectionReason: row.rejection_reason } : { status: 'not_uploaded', rejectionReason: null },
          ]
        }),
      ),
    ]),
  ) as AccountVerification['documents']
  const externalAccount = await trx
    .selectFrom('sandbox_external_accounts')
    .select('id')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  const currentlyDue: AccountVerification['currentlyDue'] = profileRequirements(account.profile as StoredProfile | null)
  // Like Stripe's `pending_verification`: a document being checked is no longer due.
  const identityFront = documents.identity_document.front.status
  if (identityFront === 'not_uploaded' || identityFront === 'rejected') currentlyDue.push('identity_document')
  const additionalFront = documents.additional_identity_document.front.status
  if (account.additional_document_required && additionalFront !== 'pending' && additionalFront !== 'verified') {
    currentlyDue.push('additional_identity_document')
  }
  // A US individual: the SSN's last four, and the full number when those could not be matched.
  if (account.country === 'us' && account.ssn_last_4_status === 'not_provided') currentlyDue.push('ssn_last_4')
  if (account.ssn_last_4_status === 'unmatched' && account.id_number_status !== 'pending' && account.id_number_status !== 'verified')
    currentlyDue.push('id_number')
  if (!externalAccount) currentlyDue.push('external_account')
  const taxIdentified = account.country !== 'us' || account.ssn_last_4_status === 'verified' || account.id_number_status === 'verified'
  const payoutsEnabled = currentlyDue.length === 0 && identityFront === 'verified' && taxIdentified
  return { documents, currentlyDue, payoutsEnabled }
}

export async function emitAccountUpdated(kernel: SandboxKernel, trx: SandboxDb, accountId: string): Promise<void> {
  const verification = await accountVerification(trx, accountId)
  await kernel.emit(
    trx,
    'account.updated',
    {
      id: accountId,
      object: 'account',
      payouts_enabled: verification.payoutsEnabled,
      requirements: { currently_due: verification.currentlyDue },
    },
    accountId,
  )
}

/** An AccountProfile as JSON: its dates are strings. */
type StoredProfile = Omit<AccountProfile, 'tosAcceptance'> & { tosAcceptance: { date: string; ip: string } | null }

/** What Stripe asks of every individual before payouts: the name, birth date, home address and the terms' acceptance. */
function profileRequirements(profile: StoredProfile | null): AccountVerification['currentlyDue'] {
  const due: AccountVerification['currentlyDue'] = []
  if (!profile?.firstName.trim() || !profile.lastName.trim()) due.push('name')
  if (!profile?.dob) due.push('dob')
  if (!profile?.address?.line1 || !profile.address.city) due.push('address')
  if (!profile?.tosAcceptance?.ip) due.push('tos_acceptance')
  return due
}
