import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/*
 * The crash run's partner (issue 35): a webhook receiver in the harness's
 * own process, so it outlives the server's crash. The burst's sales are
 * made under a partner client whose endpoint points here; the checks then
 * hold what arrived against the server's own events. Each request is
 * verified as a partner would, with the Standard Webhooks library and the
 * endpoint's secret, once it is known.
 */

export interface ReceivedWebhook {
  id: string
  transactionId: string
  sequence: number
  /** The signature verified with the endpoint's secret. */
  verified: boolean
}

export class PartnerReceiver {
  readonly received: ReceivedWebhook[] = []
  #webhook: Webhook | undefined
  readonly #server: Server

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<PartnerReceiver> {
    const server = createServer()
    const receiver = new PartnerReceiver(server)
    server.on('request', (request, response) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        receiver.#take(body, request.headers as Record<string, string>)
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return receiver
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/pactum-webhooks`
  }

  /** The endpoint's `whsec_` secret, shown once when the harness registered it. */
  useSecret(secret: string): void {
    this.#webhook = new Webhook(secret)
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }

  #take(body: string, headers: Record<string, string>): void {
    let verified = false
    try {
      // The harness's clock is the server's: the library's 5-minute tolerance holds.
      this.#webhook?.verify(body, headers)
      verified = this.#webhook !== undefined
    } catch {
      verified = false
    }
    const event = JSON.parse(body) as { data: { transaction: { id: string }; sequence: number } }
    this.received.push({
      id: headers['webhook-id'] ?? '',
      transactionId: event.data.transaction.id,
      sequence: event.data.sequence,
      verified,
    })
  }
}
