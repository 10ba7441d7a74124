import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'
import { resetWindow } from './fresh-window.ts'

// The files of a worker share its window (vitest.config.ts): each test starts
// from what a new window holds, whatever the file before it left there.
beforeEach(() => resetWindow())

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup()
  // A test that forgot them would leave fake timers and stubbed globals to the next file.
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

// `findBy…`/`waitFor` give up after 1 s by default: a lazily loaded page on two
// busy CI cores has taken longer, and the first import of the status page's
// chunk beside the PostgreSQL suite took more than 5 s once. A hang guard, not
// a speed check: only a failing test waits this long (testTimeout is 30 s).
configure({ asyncUtilTimeout: 15_000 })
