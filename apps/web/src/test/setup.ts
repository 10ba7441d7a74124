import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup())

// `findBy…`/`waitFor` give up after 1 s by default: a lazily loaded page on two
// busy CI cores has taken longer. A hang guard, not a speed check.
configure({ asyncUtilTimeout: 5_000 })
