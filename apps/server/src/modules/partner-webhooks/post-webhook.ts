import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { ForbiddenTargetError, isForbiddenAddress, safeLookup } from './safe-target.ts'

export interface WebhookAnswer {
  statusCode: number | null
  /** The first 2,000 characters of the answer, for the console. */
  body: string | null
  error: string | null
  durationMs: number
}

const timeoutMs = 10_000
const keptBodyCharacters = 2_000

/**
 * One POST of a signed delivery, answered within 10 s or counted failed.
 * Any 2xx is a success; a redirect is not followed (the partner registered
 * this address). Never throws: the answer says what happened.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; now: () => number },
): Promise<WebhookAnswer> {
  const started = options.now()
  const done = (answer: Omit<WebhookAnswer, 'durationMs'>): WebhookAnswer => ({
    ...answer,
    durationMs: Math.max(0, options.now() - started),
  })
  return new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resolve(done({ statusCode: null, body: null, error: 'not a valid URL' }))
      return
    }
    // An address written in the URL is connected to without a lookup: checked here.
    const literal = target.hostname.replace(/^\[|\]$/g, '')
    if (isIP(literal) && isForbiddenAddress(literal) && !options.allowPrivate) {
      resolve(done({ statusCode: null, body: null, error: new ForbiddenTargetError(`${literal} is a private or local address`).message }))
      return
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Pactum-Webhooks/1',
        },
        lookup: safeLookup(options.allowPrivate),
        timeout: timeoutMs,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (text.length < keptBodyCharacters) text += chunk
        })
        response.on('end', () =>
          resolve(done({ statusCode: response.statusCode ?? null, body: text.slice(0, keptBodyCharacters), error: null })),
        )
        response.on('error', (error) => resolve(done({ statusCode: response.statusCode ?? null, body: null, error: error.message })))
      },
    )
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
    request.on('error', (error) => resolve(done({ statusCode: null, body: null, error: error.message })))
    request.end(body)
  })
}
