/** The seven languages as every language picker lists them: each in its own language, in the locales' order. */
export const languagesByOwnName = ['English (UK)', 'Suomi', 'Hrvatski', 'Italiano', 'Bahasa Melayu', 'Polski', 'Svenska']
