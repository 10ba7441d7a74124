/**
 * The web files share their worker's window (`isolate: false`, see
 * vitest.config.ts): what one test leaves in it (the address it navigated
 * to, cookies, storage, the page's language) would be there when the next
 * file's tests start. Each test starts from what a new window holds.
 */
const startAddress = 'http://localhost:3000/'

interface HappyDomWindow {
  happyDOM: { setURL(url: string): void }
}

export function resetWindow(): void {
  ;(window as unknown as HappyDomWindow).happyDOM.setURL(startAddress)
  clearCookies()
  window.localStorage.clear()
  window.sessionStorage.clear()
  for (const attribute of ['lang', 'dir']) document.documentElement.removeAttribute(attribute)
  document.title = ''
  document.body.replaceChildren()
}

function clearCookies(): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    if (!name) continue
    // With and without a path: happy-dom keeps a cookie set without one under an empty path.
    document.cookie = `${name}=; max-age=0; path=/`
    document.cookie = `${name}=; max-age=0`
  }
}
