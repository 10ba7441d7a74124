import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup())

// `findBy…`/`waitFor` give up after 1 s by default: a lazily loaded page on two
// busy CI cores has taken longer, and the first import of the status page's
// chunk beside the PostgreSQL suite took more than 5 s once. A hang guard, not
// a speed check: only a failing test waits this long (testTimeout is 30 s).
configure({ asyncUtilTimeout: 15_000 })

// The web project runs its files one after another in each worker without
// isolating them (vite.config.ts), and the worker keeps one happy-dom window
// for all of them. So each file starts here from a clean window, as an
// isolated file would: no cookie (the language's), nothing stored, the page
// at `/`. And with fresh copies of the app's own modules, so that no module
// state (a lazy component already loaded, a cached dictionary) and no
// `vi.mock` depends on which file ran before. React, MUI and the other
// packages stay loaded: importing them was most of what isolation cost.
// A cookie set with no path, or with any path of the current page.
const cookiePaths = ['', ...location.pathname.split('/').map((_, index, parts) => `; path=${parts.slice(0, index + 1).join('/') || '/'}`)]
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]?.trim()
  for (const path of name ? cookiePaths : []) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT${path}`
}
localStorage.clear()
sessionStorage.clear()
history.replaceState(null, '', '/')
document.documentElement.removeAttribute('lang')
vi.resetModules()
