import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { layoutWords } from '../notifications/notification-messages.ts'
import { renderMail } from '../notifications/render-mail.ts'
import { disabledEndpointOf } from './webhook-endpoints-repository.ts'

/**
 * The e-mail that tells a partner its webhook endpoint was switched off
 * after three days of failures (issue 35): to the client's contact address,
 * when it has one, and to Pactum's support address, which hears of it
 * either way. Enqueued in the database transaction that disabled the
 * endpoint, so it goes once that is committed; the job's singleton key and
 * the messages' keys send one e-mail per disabling however often the job
 * runs. Written in English: a client has no language, and its readers are
 * the partner's developers. Not sent when the endpoint was enabled again
 * (or deleted) before the job ran.
 */
export const endpointDisabledMailQueue = 'webhook-endpoint-disabled-mail'

interface EndpointDisabledJob {
  endpointId: string
  /** ISO time of the disabling: one e-mail per disabling, a later one gets its own. */
  disabledAt: string
}

export async function createEndpointDisabledMailQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(endpointDisabledMailQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 })
}

export async function enqueueEndpointDisabledMail(
  jobs: JobQueue,
  trx: Kysely<Database>,
  job: { endpointId: string; disabledAt: Date },
): Promise<void> {
  const data = { endpointId: job.endpointId, disabledAt: job.disabledAt.toISOString() }
  await jobs.send<EndpointDisabledJob>(endpointDisabledMailQueue, data, {
    db: trx,
    singletonKey: `${data.endpointId}:${data.disabledAt}`,
  })
}

export interface EndpointDisabledMailDeps {
  db: Kysely<Database>
  mailer: Mailer
  supportEmail: string
  publicUrl: string
}

export async function startEndpointDisabledMailWorker(jobs: JobQueue, deps: EndpointDisabledMailDeps): Promise<void> {
  await jobs.work<EndpointDisabledJob>(endpointDisabledMailQueue, async (job) => sendEndpointDisabledMail(deps, job))
}

async function sendEndpointDisabledMail(deps: EndpointDisabledMailDeps, job: EndpointDisabledJob): Promise<void> {
  const endpoint = await disabledEndpointOf(deps.db, job.endpointId)
  if (endpoint?.disabled_at?.toISOString() !== job.disabledAt) return
  const facts = {
    clientName: endpoint.client_name,
    endpointId: endpoint.id,
    url: endpoint.url,
    disabledAt: endpoint.disabled_at.toISOString(),
    reason: endpoint.disabled_reason ?? 'every attempt failed for three days',
  }
  const key = `webhook-disabled:${job.endpointId}:${job.disabledAt}`
  if (endpoint.contact_email !== null) {
    await deps.mailer.send({
      to: endpoint.contact_email,
      key: `${key}:partner`,
      ...renderEndpointDisabled(facts, { ...deps, toStaff: false }),
    })
  }
  await deps.mailer.send({ to: deps.supportEmail, key: `${key}:support`, ...renderEndpointDisabled(facts, { ...deps, toStaff: true }) })
}

export interface EndpointDisabledFacts {
  clientName: string
  endpointId: string
  url: string
  disabledAt: string
  reason: string
}

export function renderEndpointDisabled(
  facts: EndpointDisabledFacts,
  options: { supportEmail: string; publicUrl: string; toStaff: boolean },
) {
  return renderMail({
    locale: 'en_gb',
    words: layoutWords('en_gb'),
    supportEmail: options.supportEmail,
    toStaff: options.toStaff,
    subject: `Webhook endpoint switched off: ${facts.url}`,
    greeting: options.toStaff ? `${facts.clientName}'s webhook endpoint was switched off:` : `Hello ${facts.clientName},`,
    paragraphs: [
      'For three days every delivery to this webhook endpoint failed, so Pactum has stopped sending to it.',
      'Nothing is lost: the events it is owed wait for it, and go out in order once it is enabled again. Until then, the event feed (GET /api/v1/partner/events) lists every event of the last 30 days.',
      options.toStaff
        ? 'The partner was told at its contact address, if its client has one. Enable it in the admin console (Clients, Webhooks) once the partner has mended its receiver.'
        : `Once your receiver answers again, enable the endpoint with your API key: POST /api/v1/partner/webhook_endpoints/${facts.endpointId}/enable, or ask us at ${options.supportEmail}.`,
    ],
    facts: [
      { label: 'Endpoint', value: facts.url },
      { label: 'Endpoint id', value: facts.endpointId },
      { label: 'Switched off at', value: facts.disabledAt },
      { label: 'Last failure', value: facts.reason },
    ],
    action: { label: 'Read the partner guide', url: `${options.publicUrl}/api/docs` },
    reason: options.toStaff
      ? "You get this e-mail because it goes to Pactum's support address."
      : 'You get this e-mail because your address is the contact of a Pactum partner client.',
  })
}
