import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../../apps/server/src/db/schema.ts'
import type { Answer, ApiClient, Caller, Phase } from './client.ts'

/*
 * What every race of `npm run bench:conflicts` works with: the sale it
 * races over (how it calls the API, in setup and in the race), and the
 * shape of a race kind, its setup and its lanes of requests.
 */

export interface Tokens {
  buyer: string
  seller: string
  admin: string
}

/** A setup step was refused: the race could not start (reported, never counted as a race answer). */
export class SetupError extends Error {}

/** One sale of the run: its parties, its id once created, and how it calls the API. */
export class Sale {
  id = ''
  /** Requests a race planned but could not send (confirming a payment that was never opened). */
  notSent = 0
  /** When the race's first request went out. */
  raceStartedAt: Date | null = null

  readonly kind: RaceKind
  readonly index: number
  readonly tokens: Tokens
  readonly api: ApiClient
  readonly db: Kysely<Database>

  constructor(kind: RaceKind, index: number, tokens: Tokens, api: ApiClient, db: Kysely<Database>) {
    this.kind = kind
    this.index = index
    this.tokens = tokens
    this.api = api
    this.db = db
  }

  #context(phase: Phase) {
    return { race: this.kind.name, saleId: this.id, phase, tokens: this.tokens }
  }

  /** A setup step that must succeed; answers its body. */
  async step(who: Caller, method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<Record<string, unknown>> {
    const answer = await this.api.call(this.#context('setup'), who, method, path, {
      ...(body ? { body } : {}),
      label: `setup ${path.split('?')[0]!.split('/').pop()}`,
    })
    if (answer.status < 200 || answer.status >= 300) {
      throw new SetupError(`${method} ${answer.route} answered ${answer.status || answer.networkError} ${answer.code ?? ''}`)
    }
    return answer.body as Record<string, unknown>
  }

  /** One request of the race. */
  race(
    who: Caller,
    method: 'POST',
    path: string,
    options: { body?: object; idempotencyKey?: string | undefined; label: string },
  ): Promise<Answer> {
    return this.api.call(this.#context('race'), who, method, path, {
      ...(options.body ? { body: options.body } : {}),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      label: options.label,
    })
  }

  /** Waits (during setup) until the transaction reaches one of `statuses`. */
  async waitFor(statuses: string[], seconds = 30): Promise<Record<string, unknown>> {
    const until = Date.now() + seconds * 1000
    for (;;) {
      const body = await this.step('buyer', 'GET', `/api/v1/transactions/${this.id}`)
      if (statuses.includes(body.status as string)) return body
      if (Date.now() > until) throw new SetupError(`waited ${seconds} s for ${statuses.join('/')}, still ${String(body.status)}`)
      await sleep(250)
    }
  }
}

/** A request of the race, or a chain of them (a payment: open, confirm at the provider, report). */
export interface Lane {
  calls: number
  run(): Promise<unknown>
}

export interface RaceKind {
  name: string
  /** What races, for the printed line. */
  summary: string
  type: 'online' | 'f2f'
  /** Where a sale of this kind may end up once every job has run. */
  ends: readonly string[]
  /** Brings a new sale to the start of the race. */
  setup(sale: Sale): Promise<Prepared>
  lanes(sale: Sale, requests: number, prepared: Prepared): Lane[]
}

/** What a race needs from its setup. */
export interface Prepared {
  /** The complaint deadline, for races fired at it (together with the window's timer). */
  deadline?: Date
  /** A payment opened before the race. */
  intent?: Intent
  /** Totals the seller had quoted before the race (set_price bodies). */
  totals?: object[]
}

export interface Intent {
  id: string
  secret: string
}
