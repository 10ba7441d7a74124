import { describe, expect, it } from 'vitest'
import { faceToFaceFormSchema } from './face-to-face-model.ts'
import { onlineCreateFormSchema } from './online-create-model.ts'

describe('the create forms’ description', () => {
  const invisible = ['\u200b', '\u200d\ufeff', '\u2060 \u00a0']

  it('is refused as missing when it is only invisible characters, as the server refuses it', () => {
    for (const description of invisible) {
      const online = onlineCreateFormSchema({ locale: 'en_gb' }).safeParse({
        role: 'seller',
        description,
        currency: 'eur',
        price: '10.00',
        payment_method: 'card',
      })
      expect(online.success, JSON.stringify(description)).toBe(false)
      expect(online.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toContainEqual([
        'description',
        'descriptionRequired',
      ])
      const f2f = faceToFaceFormSchema({ locale: 'en_gb' }).safeParse({ role: 'seller', description, currency: 'eur', deposit: '10.00' })
      expect(f2f.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toContainEqual(['description', 'descriptionRequired'])
    }
  })

  it('accepts a description with something to read, invisible characters around it or not', () => {
    const online = onlineCreateFormSchema({ locale: 'en_gb' }).safeParse({
      role: 'seller',
      description: '\u200bRed bike',
      currency: 'eur',
      price: '10.00',
      payment_method: 'card',
    })
    expect(online.success).toBe(true)
  })
})
