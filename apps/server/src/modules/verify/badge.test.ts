import type { PublicVerification } from '@pactum/contracts/verify'
import { describe, expect, it } from 'vitest'
import { badgeSvg, escapeXml, formattedAmount } from './badge.ts'

const facts: PublicVerification = {
  state: 'released',
  amount: 10_340,
  currency: 'eur',
  created: '2026-11-22T10:00:00.000Z',
  paid: '2026-11-22T11:00:00.000Z',
  released: '2026-11-30T11:00:00.000Z',
  refunded: null,
  buyer: null,
  seller: null,
  partner_name: '<script>alert(1)</script>',
}

describe('the verification badge', () => {
  it('says the state and the amount in words', () => {
    expect(badgeSvg(facts)).toContain('>Released to seller · €103.40</text>')
    expect(formattedAmount(12_345, 'jpy')).toBe('JP¥12,345')
    expect(formattedAmount(500, 'xxx')).toBe('500 XXX')
  })

  it('escapes every text it writes, so nothing in it can become markup', () => {
    expect(escapeXml(`<a href="x" onload='y'>&`)).toBe('&#60;a href=&#34;x&#34; onload=&#39;y&#39;&#62;&#38;')
    const svg = badgeSvg({ ...facts, currency: '<x>' })
    expect(svg).not.toContain('<x>')
    expect(svg).not.toContain('<script')
  })
})
