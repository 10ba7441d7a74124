import { optionalEmailCategories } from '@pactum/contracts/notification-preferences'
import { describe, expect, it } from 'vitest'
import { notifyTemplates } from './notification-messages.ts'
import { templateCategories } from './notification-categories.ts'

describe('the categories of e-mails', () => {
  it('classify every template of the catalogue, and nothing else', () => {
    expect(Object.keys(templateCategories).sort()).toEqual([...notifyTemplates].sort())
    for (const category of Object.values(templateCategories)) expect(['always', ...optionalEmailCategories]).toContain(category)
  })

  it('never let anyone turn off an e-mail about money, a case or the end of a sale', () => {
    const always = [
      'paid',
      'payment_failed',
      'deposit_paid',
      'remainder_paid',
      'funds_released',
      'payment_refunded',
      'deposit_refunded',
      'payment_returned',
      'delivered',
      'handover_confirmed',
      'complained',
      'settlement_offered',
      'case_decided',
      'case_message_received',
      'cancelled',
      'cancelled_with_payment',
    ] as const
    for (const template of always) expect(templateCategories[template], template).toBe('always')
  })

  it('give every optional category at least one e-mail', () => {
    for (const category of optionalEmailCategories) expect(Object.values(templateCategories)).toContain(category)
  })
})
