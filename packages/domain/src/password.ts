/**
 * The password rule shown on the registration page: long enough to resist
 * guessing, with both letters and digits. Kept here so that the sign-in pages
 * and any client state the same rule.
 */
export const passwordMinLength = 10
export const passwordMaxLength = 128

export type PasswordProblem = 'too_short' | 'too_long' | 'needs_letter' | 'needs_digit'

export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = []
  if (password.length < passwordMinLength) problems.push('too_short')
  if (password.length > passwordMaxLength) problems.push('too_long')
  if (!/\p{L}/u.test(password)) problems.push('needs_letter')
  if (!/\p{Nd}/u.test(password)) problems.push('needs_digit')
  return problems
}
