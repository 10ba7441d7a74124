import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { authorizationUrl, interactionPath, pkcePair, TestBrowser } from './test-browser.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function signInPage() {
  testApp = await createTestApp()
  const browser = new TestBrowser(testApp.app)
  const start = await browser.request({ url: authorizationUrl({ challenge: pkcePair().challenge }) })
  const page = await browser.request({ url: interactionPath(start) })
  expect(page.statusCode).toBe(200)
  return { browser, page }
}

/** The file the web app bundles through `@fontsource/roboto/<weight>.css` (apps/web/src/main.tsx). */
function webAppFontFile(name: string) {
  return readFile(createRequire(import.meta.url).resolve(`@fontsource/roboto/files/${name}`))
}

describe("the sign-in pages in the web app's look", () => {
  it("use the web app's font, served from our own origin under the strict CSP", async () => {
    const { browser, page } = await signInPage()
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1]
    expect(stylesheet).toBe('/oidc/assets/fonts.css')
    expect(page.body).toContain('body{margin:0;min-height:100vh;font-family:Roboto,')
    const csp = page.headers['content-security-policy']
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("font-src 'self' data:")
    expect(csp).toContain("style-src 'self' 'unsafe-inline'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).not.toMatch(/https?:/)

    const css = await browser.request({ url: stylesheet! })
    expect(css.statusCode).toBe(200)
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    for (const weight of [400, 500, 700]) {
      expect(css.body).toContain(`url(fonts/roboto-latin-${weight}-normal.woff2) format('woff2')`)
      expect(css.body).toContain(`url(fonts/roboto-latin-ext-${weight}-normal.woff2) format('woff2')`)
    }
    expect(css.body).toContain("font-family: 'Roboto'")

    // Relative to the stylesheet, as the browser resolves it.
    const fontPath = new URL('fonts/roboto-latin-400-normal.woff2', `http://localhost${stylesheet}`).pathname
    const font = await browser.request({ url: fontPath })
    expect(font.statusCode).toBe(200)
    expect(font.headers['content-type']).toBe('font/woff2')
    expect(font.rawPayload.equals(await webAppFontFile('roboto-latin-400-normal.woff2'))).toBe(true)
  })

  it('serve only the font files the stylesheet names', async () => {
    const { browser } = await signInPage()
    for (const name of ['roboto-latin-400-italic.woff2', '..%2F400.css', '..%2F..%2F..%2Fpackage.json', 'LICENSE']) {
      const response = await browser.request({ url: `/oidc/assets/fonts/${name}` })
      expect(response.statusCode, name).toBe(404)
    }
  })

  it('link the favicon, which the server answers as an icon', async () => {
    const { browser, page } = await signInPage()
    expect(page.body).toContain('<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">')
    const signedOut = await browser.request({ url: '/oidc/session/end/success' })
    expect(signedOut.body).toContain('<link rel="icon" href="/favicon.ico"')

    const icon = await browser.request({ url: '/favicon.ico' })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['content-type']).toBe('image/x-icon')
    // An ICO file: reserved 0, type 1 (icon), and the 16, 32 and 48 px images.
    expect([...icon.rawPayload.subarray(0, 6)]).toEqual([0, 0, 1, 0, 3, 0])
    expect([16, 32, 48].map((_, index) => icon.rawPayload[6 + 16 * index])).toEqual([16, 32, 48])
  })
})
