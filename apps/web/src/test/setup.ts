import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup())

// `findBy…`/`waitFor` give up after 1 s by default: a lazily loaded page on two
// busy CI cores has taken longer, and the first import of the status page's
// chunk beside the PostgreSQL suite took more than 5 s once. A hang guard, not
// a speed check: only a failing test waits this long (testTimeout is 30 s).
configure({ asyncUtilTimeout: 15_000 })
