import type { CaseView } from '@pactum/contracts/disputes'

/** A complaint's case as the server would send it: open, about €100.00, no offers yet. */
export function fakeCase(overrides: Partial<CaseView> = {}): CaseView {
  return {
    transaction_id: 'tx-1',
    state: 'open',
    reason: 'damaged',
    description: 'The frame arrived cracked',
    opened_at: '2026-11-23T10:00:00.000Z',
    currency: 'eur',
    price_in_dispute: 10_000,
    response_deadline: '2026-11-26T10:00:00.000Z',
    escalated_at: null,
    summary_due: '2026-11-26T10:00:00.000Z',
    final_answer_due: '2027-01-18T10:00:00.000Z',
    offers: [],
    amount_refunded: 0,
    amount_released: 0,
    ...overrides,
  }
}
