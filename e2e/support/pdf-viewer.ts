import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, expect, type Page } from '@playwright/test'
import { keepScreenshot } from './screenshots.ts'

/** Chromium's PDF viewer is this built-in extension; the document is drawn in its frame. */
const pdfViewerOrigin = 'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/'

/**
 * Clicks `button` on `page`, keeps the PDF it downloads, and opens that file
 * in Chromium's own PDF viewer, as a person opening the download would
 * (issue 33: "the receipts open correctly in Chromium (PDF viewer)").
 *
 * The tests' browser cannot show it: Playwright's headless mode saves every
 * PDF as a download instead. So the file goes to a second Chromium of the
 * same binary in the new headless mode (`--headless=new`, launched as
 * "headed" so that Playwright leaves the viewer on), which is the full
 * browser without a window, viewer included. The viewer's toolbar shows the
 * document's title from its metadata and its page count: both are read
 * back, so a file the viewer could not parse fails here.
 */
export async function expectPdfOpensInViewer(page: Page, button: string, expected: { title: string; screenshot: string }): Promise<void> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()])
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pactum-pdf-')), download.suggestedFilename())
  await download.saveAs(file)

  const viewerBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: false,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const viewerPage = await viewerBrowser.newPage({ viewport: { width: 900, height: 1000 } })
    await viewerPage.goto(pathToFileURL(file).href)
    await expect.poll(() => viewerPage.frames().some((frame) => frame.url().startsWith(pdfViewerOrigin)), { timeout: 20_000 }).toBe(true)
    const viewer = viewerPage.frames().find((frame) => frame.url().startsWith(pdfViewerOrigin))!
    // The toolbar (in the viewer's shadow DOM, which locators pierce): the title and the page count once the file is parsed.
    await expect(viewer.locator('#title').first()).toHaveText(expected.title)
    await expect(viewer.locator('#pagelength')).toHaveText(/^[1-9]\d*$/)
    await keepScreenshot(viewerPage, expected.screenshot)
  } finally {
    await viewerBrowser.close()
  }
}
