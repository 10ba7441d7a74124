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

/**
 * A route's page, split into its own chunk and loaded on first visit. Unless
 * it is the first screen (My transactions), it also waits for the complete
 * dictionary (i18n/dictionary-sections.ts); its chunk downloads meanwhile.
 */
export function lazyPage<Module extends Record<Name, ComponentType>, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  name: Name,
  { firstScreen = false, timeoutMs = chunkLoadTimeoutMs }: { firstScreen?: boolean; timeoutMs?: number } = {},
): ComponentType {
  let pending: Promise<Module> | undefined
  const fetchPage = () => {
    pending ??= withTimeout(load(), timeoutMs)
    return pending
  }
  const Page = lazy<ComponentType>(() => fetchPage().then((module) => ({ default: module[name] })))
  if (firstScreen) return Page
  function PageWithDictionary() {
    // Started here, not when CompleteDictionary lets Page render: both download at once. Failures surface through Page.
    fetchPage().catch(() => undefined)
    return createElement(CompleteDictionary, null, createElement(Page))
  }
  return PageWithDictionary
}
