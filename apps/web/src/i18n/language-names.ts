import type { Locale } from '@pactum/domain/locales'

/**
 * Each language by its own name. These are deliberately not translated: a
 * reader looks for the name of their language as they write it.
 */
export const languageNames: Record<Locale, string> = {
  en_gb: 'English (UK)',
  fi_fi: 'Suomi',
  hr_hr: 'Hrvatski',
  it_it: 'Italiano',
  ms_my: 'Bahasa Melayu',
  pl_pl: 'Polski',
  sv_se: 'Svenska',
}
