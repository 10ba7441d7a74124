import { writeSync } from 'node:fs'

/**
 * Named places where a crash hurts most: after one system has taken a
 * change and before the next has heard of it. The crash harness
 * (bench/crash-harness.ts) starts the server with `CRASH_POINT=name[:n]`,
 * and the server kills itself with SIGKILL (no handler, no flush, no
 * graceful close) the n-th time it reaches that point (the first, by
 * default). Unset, as in production, `crashPoint()` does nothing.
 */
export const crashPointNames = [
  // A state change committed its outbox row; the job holds it and has not called the provider.
  'outbox.before-provider-call',
  // The provider accepted the transfer or refund; the outbox row does not say so yet.
  'outbox.after-provider-call',
  // A webhook's event is stored and applied (one commit); the provider has not had its 2xx.
  'webhook.after-commit',
  // The mailer took the e-mail; the notifications row is not marked sent.
  'notification.after-send',
  // A timer's state change committed; pg-boss has not completed the job.
  'timer.after-commit',
  // A use case committed; its answer is not stored under the request's Idempotency-Key.
  'idempotency.before-store',
  // A change committed its partner event; the delivery is leased and not yet posted to the partner.
  'partner-webhook.before-post',
  // The partner's receiver answered 2xx; the delivery does not say so yet (it is sent again: at least once).
  'partner-webhook.after-post',
] as const

export type CrashPointName = (typeof crashPointNames)[number]

export interface CrashPointSetting {
  name: CrashPointName
  /** Crash on the n-th time the point is reached (1 = the first). */
  nth: number
}

let armed: { name: CrashPointName; remaining: number } | undefined

/** Called once at start-up by serve.ts (through main.ts), never by tests that run the app in-process. */
export function armCrashPoint(setting: CrashPointSetting | undefined): void {
  armed = setting ? { name: setting.name, remaining: setting.nth } : undefined
}

export function crashPoint(name: CrashPointName): void {
  if (armed?.name !== name) return
  armed.remaining -= 1
  if (armed.remaining > 0) return
  // Synchronous, so the line is out before the signal: the harness reads it to know where the process died.
  writeSync(2, `crash point ${name} reached: SIGKILL\n`)
  process.kill(process.pid, 'SIGKILL')
}
