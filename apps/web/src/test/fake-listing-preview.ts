import type { ListingPreview } from '@pactum/contracts/listings'

/** A multi-use listing's preview (`GET /listings/{id}`): Marta's vintage camera at €50.00, €1.90 fee by card. */
export function fakeListingPreview(overrides: Partial<ListingPreview> = {}): ListingPreview {
  const id = overrides.id ?? '3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b'
  return {
    id,
    code: 'K7M2Q-9QHDX',
    listing_type: 'multi_use',
    type: 'online',
    price: 5000,
    currency: 'eur',
    description: 'Vintage camera',
    status: 'open',
    url: `http://localhost/join-transaction/listing/${id}`,
    seller_first_name: 'Marta',
    available: true,
    payment_method: 'card',
    charge: 190,
    charge_calculator_version: 1,
    ...overrides,
  }
}
