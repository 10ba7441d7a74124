import { z } from 'zod'

/**
 * The GETs one `GET /me/batch` may carry, by path (a query string may
 * follow): what a signed-in first screen reads (the web app's
 * app/first-requests.ts). Nothing else, so a batch cannot multiply the
 * cost of an expensive read.
 */
export const batchablePaths = ['/me', '/me/transactions', '/me/personal', '/me/personal/payout_requirements', '/me/guided_tour'] as const

/** At most one of each. */
export const maxBatchedGets = batchablePaths.length

function isBatchable(get: string): boolean {
  const pathname = get.split('?', 1)[0]
  return batchablePaths.some((path) => path === pathname)
}

const batchedGetSchema = z
  .string()
  .max(200)
  .refine(isBatchable, { message: `Not a GET a batch may carry (${batchablePaths.join(', ')})` })

/** `?get=/me/personal&get=/me/transactions?limit=50`: each path below /api/v1, URL-encoded. */
export const batchQuerySchema = z.object({
  get: z.preprocess(
    (value) => (Array.isArray(value) || value === undefined ? value : [value]),
    z
      .array(batchedGetSchema)
      .min(1)
      .max(maxBatchedGets)
      .refine((gets) => new Set(gets).size === gets.length, { message: 'The same GET twice' }),
  ),
})

/** One GET's answer as that GET alone would have had it: its status and its JSON body (null when it had none). */
export const batchedAnswerSchema = z
  .object({
    get: z.string(),
    status: z.number().int(),
    body: z.unknown(),
  })
  .meta({ id: 'BatchedAnswer' })
export type BatchedAnswer = z.infer<typeof batchedAnswerSchema>

/** The answers in the order the GETs were asked. */
export const batchSchema = z.object({ answers: z.array(batchedAnswerSchema) }).meta({ id: 'Batch' })
export type Batch = z.infer<typeof batchSchema>
