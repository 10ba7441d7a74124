/**
 * An e-mail address as the public verification page shows it: enough for
 * the buyer to recognise their own and the seller's (`j***@e***.com`), too
 * little to write to or to look anyone up by. The first character of the
 * local part and of the domain, and the top-level domain.
 */
export function maskedEmail(address: string): string {
  const at = address.lastIndexOf('@')
  const local = at > 0 ? address.slice(0, at) : address
  const domain = at > 0 ? address.slice(at + 1).toLowerCase() : ''
  const labels = domain.split('.').filter(Boolean)
  const first = (text: string) => Array.from(text)[0] ?? ''
  const tld = labels.length > 1 ? `.${labels[labels.length - 1]}` : ''
  return `${first(local).toLowerCase()}***@${first(labels[0] ?? '')}***${tld}`
}
