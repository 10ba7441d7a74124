import { describe, expect, it } from 'vitest'
import { supportedCarriers } from './carriers.ts'
import { carriersWithTrackingPages, trackingPageUrl } from './tracking-pages.ts'

describe("a carrier's tracking page", () => {
  it('puts the code into the carrier’s address', () => {
    expect(trackingPageUrl('royal-mail', 'AB123456789GB')).toBe('https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB')
    expect(trackingPageUrl('usps', '9400100000000000000000')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
    )
  })

  it('encodes the code, so that no code can send the link elsewhere', () => {
    expect(trackingPageUrl('ups', '1Z&x=1/../#evil')).toBe('https://www.ups.com/track?tracknum=1Z%26x%3D1%2F..%2F%23evil')
  })

  it('has no page for a carrier without a known one, nor for a name that is no slug', () => {
    expect(trackingPageUrl('postnl', 'JD0001')).toBeNull()
    expect(trackingPageUrl('toString', 'JD0001')).toBeNull()
    expect(trackingPageUrl('__proto__', 'JD0001')).toBeNull()
  })

  it('has pages only for carriers a seller can pick, each on https', () => {
    const slugs = new Set(supportedCarriers.map((carrier) => carrier.slug))
    for (const slug of carriersWithTrackingPages) {
      expect(slugs.has(slug), slug).toBe(true)
      expect(new URL(trackingPageUrl(slug, 'X1')!).protocol).toBe('https:')
    }
  })
})
