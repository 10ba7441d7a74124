/**
 * A screenshot of every state-change e-mail (each template to each party) as
 * Chromium renders its HTML, light and dark, at a phone's width, for a
 * person to look through (issue 33: "a screenshot of each in Chromium that
 * the developer looks at"). The tests check the structure
 * (mail-rendering.test.ts); this shows what a reader sees.
 *
 *   node scripts/mail-screenshots.ts [locale] [out-dir]
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium } from '@playwright/test'
import { isSupportedLocale } from '@pactum/domain/locales'
import { notifyTemplates, parties, renderNotification } from '../apps/server/src/modules/notifications/notification-messages.ts'

const locale = process.argv[2] ?? 'en_gb'
if (!isSupportedLocale(locale)) throw new Error(`unknown locale ${locale}`)
const outDir = path.resolve(process.argv[3] ?? 'e2e/artifacts/mail-screenshots')
await mkdir(outDir, { recursive: true })

const facts = {
  description: 'Vintage road bicycle <Colnago> "Master"',
  price: { amount: 123_456, currency: 'eur' as const },
  otherPartyFirstName: 'Bea',
  recipientFirstName: 'Zoë',
  link: 'https://pactum.example/transactions/0195f3c2-0000-7000-8000-000000000001',
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
})
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 800 } })
  let count = 0
  for (const template of notifyTemplates) {
    for (const to of parties) {
      const mail = renderNotification(locale, template, to, facts, { supportEmail: 'support@pactum.example' })
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        await page.setContent(mail.html)
        await page.screenshot({ path: path.join(outDir, `${locale}-${template}-${to}-${colorScheme}.png`), fullPage: true })
        count += 1
      }
    }
  }
  process.stdout.write(`${count} screenshots in ${outDir}\n`)
} finally {
  await browser.close()
}
