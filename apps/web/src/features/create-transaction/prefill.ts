import type { Role } from '@pactum/contracts/transactions'

/** The query parameters a create/build link may carry (spec §2, §5). */
export const prefillParams = ['user', 'model', 'cur', 'price', 'deposit', 'desc'] as const
export type PrefillParam = (typeof prefillParams)[number]

export type PrefillModel = 'online' | 'f2f'

export interface Prefill {
  role?: Role
  model?: PrefillModel
  currency?: string
  /** Major units exactly as given (`12.34`): turned into minor units once the currency is known. */
  price?: string
  /** A face-to-face deposit in major units, as `price`. */
  deposit?: string
  description?: string
}

export interface PrefillResult {
  values: Prefill
  /** Parameters that were present but unusable, in the order of `prefillParams`. */
  invalid: PrefillParam[]
}

const models: Record<string, PrefillModel> = { online: 'online', f2f: 'f2f', f: 'f2f' }

/**
 * Spec §5 link prefill. "Values are lowercased except price": that applies to
 * the codes (user, model, cur). The description is the seller's own words and
 * keeps its case — lowercasing "iPhone 15 Pro" would be a bug, not a rule.
 * A parameter that is absent is simply not prefilled; one that is present but
 * invalid is ignored and reported so the screen can say which.
 */
export function parsePrefill(query: URLSearchParams, supportedCurrencies: readonly string[]): PrefillResult {
  const values: Prefill = {}
  const invalid: PrefillParam[] = []

  const user = query.get('user')
  if (user !== null) {
    const role = user.trim().toLowerCase()
    if (role === 'buyer' || role === 'seller') values.role = role
    else invalid.push('user')
  }

  const model = query.get('model')
  if (model !== null) {
    const value = models[model.trim().toLowerCase()]
    if (value) values.model = value
    else invalid.push('model')
  }

  const cur = query.get('cur')
  if (cur !== null) {
    const currency = cur.trim().toLowerCase()
    if (supportedCurrencies.includes(currency)) values.currency = currency
    else invalid.push('cur')
  }

  // Plain non-negative decimals with a dot: `12`, `12.3`, `12.34` (no exponents, signs or commas).
  for (const [param, key] of [
    ['price', 'price'],
    ['deposit', 'deposit'],
  ] as const) {
    const raw = query.get(param)
    if (raw === null) continue
    const value = raw.trim()
    if (/^\d+(\.\d+)?$/.test(value)) values[key] = value
    else invalid.push(param)
  }

  const desc = query.get('desc')
  if (desc !== null) {
    const value = desc.trim()
    if (value !== '') values.description = value.slice(0, 1000)
    else invalid.push('desc')
  }

  return { values, invalid }
}
