import '@fontsource/roboto/400.css'
import '@fontsource/roboto/500.css'
import '@fontsource/roboto/700.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { createI18n } from './i18n/i18n.ts'
import { pickInitialLocale } from './i18n/initial-locale.ts'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createI18n(pickInitialLocale(document.cookie, navigator.languages), { rest: 'later' }).then((i18n) => {
  createRoot(root).render(
    <StrictMode>
      <App i18n={i18n} />
    </StrictMode>,
  )
})
