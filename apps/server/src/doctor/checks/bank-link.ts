import type { ProviderReport } from '../report.ts'

/** US bank accounts: the sandbox bank link (the seller types the numbers, test rules in docs/sandbox.md). */
export function checkBankLink(): ProviderReport {
  return { service: 'bank accounts', mode: 'sandbox', summary: 'the sandbox bank link: sellers type their account numbers (docs/sandbox.md)', checks: [] }
}
