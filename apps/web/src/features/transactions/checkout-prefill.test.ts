import { describe, expect, it } from 'vitest'
import { buyerProfile } from '../../test/fake-personal-profile.ts'
import { emptyAddress, fillEmptyFields, suggestedAddress } from './checkout-prefill.ts'

const countries = ['de', 'fi', 'ie', 'pl']
const profile = (country: string | null, first = 'Bea', last = 'Buyer') => buyerProfile(country, { first, last })
const lastAddress = {
  name: 'Bea at work',
  line1: 'Büroweg 7',
  line2: '3. OG',
  city: 'Hamburg',
  postal_code: '20095',
  country_code: 'de',
  state: null,
}

describe('suggestedAddress', () => {
  it('offers the last address whole, name and country included', () => {
    expect(suggestedAddress(lastAddress, profile('fi'), countries)).toEqual({
      name: 'Bea at work',
      line1: 'Büroweg 7',
      line2: '3. OG',
      city: 'Hamburg',
      postalCode: '20095',
      country: 'de',
    })
  })

  it('offers the profile’s name and country before the first checkout', () => {
    expect(suggestedAddress(null, profile('ie'), countries)).toMatchObject({
      name: 'Bea Buyer',
      country: 'ie',
      line1: undefined,
      city: undefined,
    })
    expect(suggestedAddress(undefined, profile('ie', 'Bea', ''), countries).name).toBe('Bea')
  })

  it('never suggests a country the checkout does not ship to', () => {
    expect(suggestedAddress(null, profile('jp'), countries).country).toBeUndefined()
    expect(suggestedAddress({ ...lastAddress, country_code: 'jp' }, profile('FI'), countries).country).toBe('fi')
    expect(suggestedAddress(null, undefined, countries)).toMatchObject({ name: undefined, country: undefined })
  })
})

describe('fillEmptyFields', () => {
  it('fills only what the buyer left empty', () => {
    const typed = { ...emptyAddress, name: 'Someone Else', city: '  ' }
    expect(fillEmptyFields(typed, suggestedAddress(lastAddress, profile('fi'), countries))).toEqual({
      name: 'Someone Else',
      line1: 'Büroweg 7',
      line2: '3. OG',
      city: 'Hamburg',
      postalCode: '20095',
      country: 'de',
    })
  })

  it('leaves a field empty when there is nothing to suggest', () => {
    expect(fillEmptyFields(emptyAddress, suggestedAddress(null, profile('ie'), countries))).toEqual({
      ...emptyAddress,
      name: 'Bea Buyer',
      country: 'ie',
    })
  })
})
