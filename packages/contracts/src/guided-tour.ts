import { z } from 'zod'

/** GET /me/guided_tour and POST /me/guided_tour/seen: whether the user has finished or skipped the tour (spec §2). */
export const guidedTourSchema = z.object({ seen: z.boolean() }).meta({ id: 'GuidedTour' })
export type GuidedTour = z.infer<typeof guidedTourSchema>
