import { describe, expect, it } from 'vitest'
import { aftershipEventId, trackingNews } from './aftership-tags.ts'

const receivedAt = new Date('2026-11-24T12:00:00Z')
const tracking = (tag: string, checkpoints: Array<{ tag: string; checkpoint_time: string }> = []) => ({
  slug: 'dhl',
  tracking_number: 'JD1',
  tag,
  checkpoints,
})

describe('AfterShip tags', () => {
  it('maps the tags that move a sale, and ignores the others', () => {
    const types = [
      'InTransit',
      'OutForDelivery',
      'Delivered',
      'Exception',
      'AttemptFail',
      'FailedAttempt',
      'Expired',
      'InfoReceived',
      'Pending',
      'AvailableForPickup',
      '',
    ].map((tag) => [tag, trackingNews(tracking(tag), receivedAt)?.type])
    expect(Object.fromEntries(types)).toEqual({
      InTransit: 'in_transit',
      OutForDelivery: 'in_transit',
      Delivered: 'delivered',
      Exception: 'exception',
      AttemptFail: 'exception',
      FailedAttempt: 'exception',
      Expired: 'exception',
      InfoReceived: undefined,
      Pending: undefined,
      AvailableForPickup: undefined,
      '': undefined,
    })
  })

  it('dates the news by the latest checkpoint with its tag, never in the future', () => {
    const news = trackingNews(
      tracking('InTransit', [
        { tag: 'InTransit', checkpoint_time: '2026-11-23T08:00:00+01:00' },
        { tag: 'InTransit', checkpoint_time: '2026-11-24T09:30:00+01:00' },
        { tag: 'Exception', checkpoint_time: '2026-11-24T10:00:00Z' },
      ]),
      receivedAt,
    )
    expect(news).toMatchObject({ checkpointTime: '2026-11-24T09:30:00+01:00', occurredAt: new Date('2026-11-24T08:30:00Z') })
    expect(
      trackingNews(tracking('Delivered', [{ tag: 'Delivered', checkpoint_time: '2027-01-01T00:00:00Z' }]), receivedAt)?.occurredAt,
    ).toEqual(receivedAt)
    expect(trackingNews(tracking('Delivered', [{ tag: 'Delivered', checkpoint_time: 'yesterday' }]), receivedAt)?.occurredAt).toEqual(
      receivedAt,
    )
  })

  it('gives the same news the same event id, and new checkpoints new ones', () => {
    const first = trackingNews(tracking('InTransit', [{ tag: 'InTransit', checkpoint_time: '2026-11-24T09:30:00Z' }]), receivedAt)
    const again = trackingNews(
      tracking('InTransit', [{ tag: 'InTransit', checkpoint_time: '2026-11-24T09:30:00Z' }]),
      new Date('2026-11-24T13:00:00Z'),
    )
    const later = trackingNews(tracking('InTransit', [{ tag: 'InTransit', checkpoint_time: '2026-11-24T11:00:00Z' }]), receivedAt)
    if (!first || !again || !later) throw new Error('no news')
    expect(aftershipEventId('reg-1', first)).toBe(aftershipEventId('reg-1', again))
    expect(aftershipEventId('reg-1', first)).not.toBe(aftershipEventId('reg-1', later))
    expect(aftershipEventId('reg-1', first)).not.toBe(aftershipEventId('reg-2', first))
  })
})
