import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DevMailbox } from './dev-mailbox.ts'
import { createFileMailer } from './file-mailer.ts'

const roots: string[] = []
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true })
})

async function mailbox() {
  const root = await mkdtemp(path.join(tmpdir(), 'pactum-mailbox-'))
  roots.push(root)
  const dir = path.join(root, 'mail')
  await mkdir(dir)
  return { root, dir, box: new DevMailbox(dir) }
}

describe('the dev mailbox', () => {
  it('pages through messages written in the same millisecond without skipping or repeating one', async () => {
    const { dir, box } = await mailbox()
    const mailer = createFileMailer({ dir, from: { address: 'support@pactum.example' }, now: () => new Date('2026-11-24T10:00:00Z') })
    for (let index = 0; index < 5; index++) await mailer.send({ to: `p${index}@example.com`, subject: `#${index}`, text: 'x' })
    const seen: string[] = []
    let afterId: string | undefined
    for (;;) {
      const page = await box.list({ limit: 2, ...(afterId ? { afterId } : {}) })
      if (page.length === 0) break
      seen.push(...page.map((mail) => mail.id))
      afterId = page.at(-1)!.id
    }
    expect(seen).toHaveLength(5)
    expect(new Set(seen).size).toBe(5)
  })

  it('never builds a path from an id that is not of its own form', async () => {
    const { root, box } = await mailbox()
    await writeFile(path.join(root, 'secret.eml'), 'Subject: secret\r\n\r\nc2VjcmV0\r\n')
    for (const id of [
      '../secret',
      '..\\secret',
      '/etc/passwd',
      'secret',
      '1764000000000-00000000-0000-4000-8000-000000000000/../../secret',
    ]) {
      expect(await box.get(id), id).toBeNull()
    }
  })

  it('skips files it did not write and is empty before the folder exists', async () => {
    const { dir, box } = await mailbox()
    await writeFile(path.join(dir, 'notes.txt'), 'not mail')
    await writeFile(path.join(dir, 'x.eml'), 'Subject: not ours\r\n\r\n')
    expect(await box.list({ limit: 10 })).toEqual([])
    expect(await new DevMailbox(path.join(dir, 'missing')).list({ limit: 10 })).toEqual([])
  })
})
