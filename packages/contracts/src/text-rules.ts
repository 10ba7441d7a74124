import { z } from 'zod'

/**
 * Text rules shared by the server's validation and the web app's forms.
 *
 * A description must show something: one made only of characters that
 * display as nothing (spaces, zero-width spaces and joiners, the byte-order
 * mark, the word joiner and the other format characters, \p{Cf}, and the
 * rest of Unicode's default-ignorable code points, plus the blank Braille
 * pattern and the Hangul fillers) would be a blank line in every list, mail
 * and statement.
 */
const visibleCharacter = /[^\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u3164\uffa0\u115f\u1160]/u

export function hasVisibleCharacter(text: string): boolean {
  return visibleCharacter.test(text)
}

export const visibleTextMessage = 'must contain visible characters'

/**
 * RFC 5321 §4.5.3.1.1: a mailbox's local part is at most 64 octets. Longer
 * ones are refused by mail servers anyway; we refuse them when the address
 * is read rather than when a mail to it bounces.
 */
export const emailLocalPartMaxLength = 64

export function localPartFits(email: string): boolean {
  const at = email.lastIndexOf('@')
  return at >= 0 && new TextEncoder().encode(email.slice(0, at)).length <= emailLocalPartMaxLength
}

export const localPartMessage = `the part before the @ may be at most ${emailLocalPartMaxLength} characters`

/** The local part's rule, checked only on what is an address already: a bad address is said once. */
export const localPartRule = { message: localPartMessage, when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 }

/** An e-mail address as any input reads one (the contact form, invitations). */
export const emailAddressSchema = z.email().max(320).refine(localPartFits, localPartRule)
