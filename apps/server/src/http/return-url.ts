/** Only a path on this site: `/x`, never `//evil.example`, `/\evil.example` or `https://…`. */
export function isSafeReturnUrl(url: string): boolean {
  if (url.length > 2000 || !url.startsWith('/') || url.startsWith('//')) return false
  // Backslashes, whitespace and control characters: browsers read some of them as a host separator.
  if ([...url].some((character) => character === '\\' || character.charCodeAt(0) <= 0x20 || character === '\u007f')) return false
  try {
    return new URL(url, 'https://pactum.invalid').origin === 'https://pactum.invalid'
  } catch {
    return false
  }
}
