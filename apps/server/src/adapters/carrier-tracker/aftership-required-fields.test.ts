import { describe, expect, it } from 'vitest'
import { requiredFieldValues } from './aftership-required-fields.ts'

const shippedAt = new Date('2026-11-24T22:30:00Z')
const destination = { postalCode: ' SW1A 1AA ', countryCode: 'gb', state: null }

describe('the additional fields a courier requires', () => {
  it('gives only the fields asked for, in AfterShip’s formats', () => {
    expect(requiredFieldValues([], { destination, shippedAt })).toEqual({ fields: {}, missing: [] })
    expect(
      requiredFieldValues(['destination_postal_code', 'destination_country_region', 'tracking_ship_date'], { destination, shippedAt }),
    ).toEqual({
      fields: { destination_postal_code: 'SW1A 1AA', destination_country_region: 'GBR', tracking_ship_date: '2026-11-24' },
      missing: [],
    })
  })

  it('names what Pactum does not know: the shipper’s account, a key, the origin, an address never given', () => {
    expect(
      requiredFieldValues(['tracking_account_number', 'tracking_key', 'origin_country_region', 'destination_state'], {
        destination,
        shippedAt,
      }).missing,
    ).toEqual(['tracking_account_number', 'tracking_key', 'origin_country_region', 'destination_state'])
    expect(requiredFieldValues(['destination_postal_code'], { destination: undefined, shippedAt }).missing).toEqual([
      'destination_postal_code',
    ])
  })

  it('counts a postal code AfterShip would refuse (over 10 characters) as missing rather than sending it', () => {
    const long = { ...destination, postalCode: '12345-678901' }
    expect(requiredFieldValues(['destination_postal_code'], { destination: long, shippedAt }).missing).toEqual(['destination_postal_code'])
  })
})
