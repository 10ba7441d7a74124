import { type ComponentType, createElement, lazy } from 'react'
import { CompleteDictionary } from '../i18n/complete-dictionary.tsx'
import { chunkLoadTimeoutMs } from '../lib/constants.ts'

export class ChunkLoadTimeoutError extends Error {
  constructor(ms: number) {
    super(`A page chunk did not load within ${ms} ms`)
    this.name = 'ChunkLoadTimeoutError'
  }
}

/** Rejects when `promise` has not settled within `ms` (spec §9: chunks get 120 s). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError(ms)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/** A page component that can start downloading its chunk before it is first rendered. */
export type LazyPage = ComponentType & { preload: () => void }

/**
 * A route's page, split into its own chunk and loaded on first visit. It also
 * waits for the complete dictionary (i18n/dictionary-sections.ts); its chunk
 * downloads meanwhile. (My transactions, the first screen, is in the entry
 * and renders with the first part alone: routes.tsx.)
 *
 * Once the chunk is in, the page renders straight from it rather than
 * through React.lazy: lazy suspends on its first render even for a chunk
 * already loaded, and React holds back what replaces a Suspense fallback for
 * 300 ms (issue 13 measured it on the first screen, when that was lazy too).
 */
export function lazyPage<Module extends Record<Name, ComponentType>, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  name: Name,
  { timeoutMs = chunkLoadTimeoutMs }: { timeoutMs?: number } = {},
): LazyPage {
  let pending: Promise<Module> | undefined
  let loaded: Module | undefined
  const fetchPage = () => {
    pending ??= withTimeout(load(), timeoutMs).then((module) => {
      loaded = module
      return module
    })
    return pending
  }
  const Lazy = lazy<ComponentType>(() => fetchPage().then((module) => ({ default: module[name] })))
  function Page() {
    return createElement(loaded ? loaded[name] : Lazy)
  }
  function PageWithDictionary() {
    // Started here, not when CompleteDictionary lets Page render: both download at once. Failures surface through Page.
    fetchPage().catch(() => undefined)
    return createElement(CompleteDictionary, null, createElement(Page))
  }
  return Object.assign(PageWithDictionary, { preload: () => void fetchPage().catch(() => undefined) })
}
