import { AftershipApi } from '../../adapters/carrier-tracker/aftership-api.ts'
import type { TrackingConfig } from '../../tracking-config.ts'
import { answered, type Check, ok, type ProviderReport, warning } from '../report.ts'

/** Parcel tracking: the sandbox tracker, or the aggregator's API, asked for the account's couriers. */
export async function checkTracking(tracking: TrackingConfig): Promise<ProviderReport> {
  if (tracking.provider === 'sandbox') {
    return {
      service: 'tracking',
      mode: 'sandbox',
      summary: `the sandbox tracker: any code is in transit after ${tracking.inTransitSeconds} s and delivered after ${tracking.deliveredSeconds} s (docs/sandbox.md)`,
      checks: [],
    }
  }
  const api = new AftershipApi({ baseUrl: tracking.apiUrl, apiKey: tracking.apiKey })
  return {
    service: 'tracking',
    mode: 'real',
    summary: `the tracking API at ${tracking.apiUrl}`,
    checks: [
      ok('TRACKING_WEBHOOK_SECRET', 'present: register POST {PUBLIC_URL}/webhooks/tracking with it'),
      ok('polling', `a parcel not heard of for ${tracking.pollMinutes} min is asked about`),
      await couriersCheck(api),
    ],
  }
}

async function couriersCheck(api: AftershipApi): Promise<Check> {
  const check = await answered('the API answers', async () => String((await api.listCouriers()).length))
  if (check.outcome !== 'ok') return check
  return check.detail === '0'
    ? warning('the API answers', 'but no courier is activated on the account: sellers would have no carrier to choose')
    : ok('the API answers', `${check.detail} couriers activated on the account`)
}
