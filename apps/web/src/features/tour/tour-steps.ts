/** Spec §2: four steps, then the video step. Keys under `tour.steps`. */
export const tourSteps = ['transactSafely', 'createOrJoin', 'inputDetails', 'followProgress', 'video'] as const
export type TourStep = (typeof tourSteps)[number]

/** The clip and its captions, made by `scripts/make-tour-video.ts` and shipped with the app (public/tour). */
export const tourVideoUrl = '/tour/tour-video.webm'
export const tourCaptionLanguages = ['en_gb', 'fi_fi', 'hr_hr', 'it_it', 'ms_my', 'pl_pl', 'sv_se'] as const
export function tourCaptionsUrl(locale: string): string {
  const language = (tourCaptionLanguages as readonly string[]).includes(locale) ? locale : 'en_gb'
  return `/tour/tour-video.${language}.vtt`
}
