/**
 * The terms of service (spec §1). Bumping the version re-prompts everyone:
 * an acceptance of an older version counts as not accepted (DESIGN §4).
 */
export const currentTermsVersion = '2026-11-01'

/** Spec §1: users must be over 18. */
export const minimumAgeYears = 18
