/** Where the terms of service live (public, English only). Kept apart from the page so links don't load it. */
export const termsPath = '/terms'
