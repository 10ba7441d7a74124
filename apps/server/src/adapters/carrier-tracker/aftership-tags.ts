import type { AftershipTracking } from './aftership-api.ts'
import type { CarrierEventType } from './port.ts'

/**
 * What an AfterShip delivery tag means to a sale. Info received, pending,
 * available for pickup and the like move nothing (the parcel has not been
 * handed over, or is still to be collected); a failed attempt or an expired
 * tracking is an exception a person should look at.
 */
const tagTypes: Record<string, CarrierEventType> = {
  InTransit: 'in_transit',
  OutForDelivery: 'in_transit',
  Delivered: 'delivered',
  Exception: 'exception',
  AttemptFail: 'exception',
  FailedAttempt: 'exception',
  Expired: 'exception',
}

export interface TrackingNews {
  type: CarrierEventType
  tag: string
  /** The latest checkpoint with the tag, as the API wrote it: part of the event id, so a replay is recognised. */
  checkpointTime: string
  occurredAt: Date
}

/** The news in a tracking (webhook or poll), or undefined when its tag moves nothing. */
export function trackingNews(tracking: AftershipTracking, receivedAt: Date): TrackingNews | undefined {
  const tag = tracking.tag ?? ''
  const type = tagTypes[tag]
  if (!type) return undefined
  const checkpoint = [...(tracking.checkpoints ?? [])].reverse().find((point) => point.tag === tag && point.checkpoint_time)
  const checkpointTime = checkpoint?.checkpoint_time ?? tracking.updated_at ?? ''
  const parsed = checkpointTime ? new Date(checkpointTime) : undefined
  const occurredAt = parsed && !Number.isNaN(parsed.getTime()) && parsed <= receivedAt ? parsed : receivedAt
  return { type, tag, checkpointTime, occurredAt }
}

/** Stable for one registration, tag and checkpoint: a repeated delivery, or a poll of news already had, is handled once. */
export function aftershipEventId(registrationId: string, news: TrackingNews): string {
  return `aftership:${registrationId}:${news.tag}:${news.checkpointTime}`
}
