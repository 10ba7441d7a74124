import { type ComponentType, type LazyExoticComponent, lazy } from 'react'
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

/** A route's page, split into its own chunk and loaded on first visit. */
export function lazyPage<Module extends Record<Name, ComponentType>, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  name: Name,
  timeoutMs = chunkLoadTimeoutMs,
): LazyExoticComponent<ComponentType> {
  return lazy(() => withTimeout(load(), timeoutMs).then((module) => ({ default: module[name] })))
}
