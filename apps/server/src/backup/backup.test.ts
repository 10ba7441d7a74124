import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Database, fromPglite, openPglite, openPostgres } from '../db/database.ts'
import { withPostgresAdmin } from '../db/postgres-admin.ts'
import { verifyLedger } from '../ledger/verify-ledger.ts'
import { apiCaller, partyTokens } from '../testing/api-caller.ts'
import { appPerTest } from '../testing/app-per-test.ts'
import { joinedSale, payByCard } from '../testing/sale-steps.ts'
import { backupDatabase, backupKindOf, restorePglite, restorePostgres } from './backup.ts'
import { runScheduledBackup } from './scheduled-backups.ts'

const testApps = appPerTest()
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The backup restored into a new place of its own kind, opened. */
async function restored(file: string, kind: 'pglite' | 'postgres', source: Database): Promise<Database> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-restore-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    await restorePglite(file, dataDir)
    await expect(restorePglite(file, dataDir)).rejects.toThrow(/exists already/)
    return fromPglite(await openPglite(dataDir))
  }
  const url = new URL(source.connectionString!)
  const name = `pactum_restore_${Math.random().toString(36).slice(2, 10)}`
  const server = new URL(url)
  server.pathname = '/postgres'
  await withPostgresAdmin(server.toString(), (admin) => admin.query(`create database ${name}`))
  cleanups.push(() =>
    withPostgresAdmin(server.toString(), (admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  )
  const target = new URL(url)
  target.pathname = `/${name}`
  await restorePostgres(file, target.toString())
  return openPostgres(target.toString())
}

describe('a backup taken while sales go on (issue 37)', () => {
  it('restores into a new place with every sale committed before it and a ledger that verifies', async () => {
    const testApp = await testApps.open()
    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const sale = async () => {
      const { id } = await joinedSale(call)
      await payByCard(call, id)
      return id
    }
    const before = [await sale(), await sale(), await sale()]
    const folder = await mkdtemp(path.join(tmpdir(), 'pactum-backup-'))
    cleanups.push(() => rm(folder, { recursive: true, force: true }))
    const file = path.join(folder, 'pactum.backup')
    // The backup and three more sales at once: the copy holds what was committed when it was taken.
    const [kind, ...during] = await Promise.all([backupDatabase(testApp.database, file), sale(), sale(), sale()])
    expect(kind).toBe(testApp.database.kind)
    expect(await backupKindOf(file)).toBe(kind)

    const copy = await restored(file, kind, testApp.database)
    try {
      const ids = (await copy.db.selectFrom('transactions').select(['id', 'status']).execute()).map((row) => row.id)
      expect(ids).toEqual(expect.arrayContaining(before))
      // Those made alongside are there whole or not at all: the ledger of the copy verifies either way.
      expect(ids.filter((id) => !before.includes(id)).every((id) => during.includes(id))).toBe(true)
      expect(await verifyLedger(copy.db)).toEqual([])
      const held = await copy.db.selectFrom('ledger_entries').select('transaction_id').where('kind', '=', 'hold').execute()
      expect(held.map((row) => row.transaction_id)).toEqual(expect.arrayContaining(before))
    } finally {
      await copy.close()
    }
  })
})

describe('scheduled backups of the embedded database', () => {
  it('writes one named by its time each run and keeps the newest BACKUP_KEEP, never another file', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'pactum-scheduled-'))
    cleanups.push(() => rm(folder, { recursive: true, force: true }))
    const database = fromPglite(await openPglite(path.join(folder, 'data')))
    cleanups.push(() => database.close())
    await database.db.schema.createTable('kept').addColumn('n', 'integer').execute()
    const dir = path.join(folder, 'backups')
    const schedule = { dir, everyHours: 1, keep: 2 }
    const start = Date.parse('2026-12-06T08:00:00Z')
    const written: string[] = []
    for (let hour = 0; hour < 4; hour++) written.push(await runScheduledBackup(database, schedule, new Date(start + hour * 3_600_000)))
    await writeFile(path.join(dir, 'notes.txt'), 'not a backup')
    written.push(await runScheduledBackup(database, schedule, new Date(start + 4 * 3_600_000)))
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'pactum-2026-12-06T11-00-00Z.tar.gz', 'pactum-2026-12-06T12-00-00Z.tar.gz'])
    expect(await backupKindOf(written.at(-1)!)).toBe('pglite')
    const restoredDir = path.join(folder, 'restored')
    await restorePglite(written.at(-1)!, restoredDir)
    const copy = fromPglite(await openPglite(restoredDir))
    try {
      expect(await copy.db.introspection.getTables()).toEqual([expect.objectContaining({ name: 'kept' })])
    } finally {
      await copy.close()
    }
  })
})
