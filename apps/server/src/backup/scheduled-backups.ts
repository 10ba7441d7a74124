import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/database.ts'
import { backupDatabase } from './backup.ts'

/**
 * Backups on a schedule for the embedded default (issue 37): every
 * BACKUP_EVERY_HOURS a copy in BACKUP_DIR named by its time
 * (`pactum-2026-12-06T08-00-00Z.tar.gz`), keeping the newest BACKUP_KEEP.
 * PGlite is one process, so a timer in it is the whole schedule; a
 * PostgreSQL deployment has the database's own backups (docs/operations.md).
 */
export interface BackupSchedule {
  dir: string
  everyHours: number
  keep: number
}

const namePattern = /^pactum-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/

/** One scheduled backup and the pruning after it; answers the file written. */
export async function runScheduledBackup(database: Database, schedule: BackupSchedule, now: Date): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-')
  const file = path.join(schedule.dir, `pactum-${stamp}.tar.gz`)
  await backupDatabase(database, file)
  // Names sort by time; only the schedule's own files are ever deleted.
  const ours = (await readdir(schedule.dir)).filter((name) => namePattern.test(name)).sort()
  for (const old of ours.slice(0, Math.max(0, ours.length - schedule.keep))) await rm(path.join(schedule.dir, old), { force: true })
  return file
}

export function startScheduledBackups(
  database: Database,
  schedule: BackupSchedule,
  options: { now: () => Date; log: FastifyBaseLogger },
): { stop(): void } {
  const timer = setInterval(() => {
    runScheduledBackup(database, schedule, options.now()).then(
      (file) => options.log.info({ file }, 'scheduled backup written'),
      (error: unknown) => options.log.error({ err: error }, 'the scheduled backup failed'),
    )
  }, schedule.everyHours * 3_600_000)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
