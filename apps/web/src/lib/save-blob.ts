/**
 * Hands `blob` to the browser as a download named `name`: through an object
 * URL, since a file fetched with the API client (bearer token) has no address
 * of its own. The URL is let go a little after the click, once the browser has
 * started the download (revoking it at once can cancel it in some browsers).
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
