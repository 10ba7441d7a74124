import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { PdfThread } from './pdf-thread.ts'

/** A stand-in worker: answers its text's bytes, refuses "fail" as a renderer's error would, and stops on "die". */
function standInWorker(): URL {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pactum-pdf-thread-')), 'worker.mjs')
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads'
parentPort.on('message', ({ id, text }) => {
  if (text === 'die') process.exit(3)
  if (text === 'fail') parentPort.postMessage({ id, error: 'no glyph for that' })
  else setTimeout(() => parentPort.postMessage({ id, pdf: new TextEncoder().encode(text) }), text === 'slow' ? 50 : 0)
})
`,
  )
  return pathToFileURL(file)
}

const threads: Array<PdfThread<{ text: string }>> = []
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.close()))
})

function newThread() {
  const thread = new PdfThread<{ text: string }>(standInWorker())
  threads.push(thread)
  return thread
}

describe('the PDF thread', () => {
  it('answers each request with its own document, several at once', async () => {
    const thread = newThread()
    const answers = await Promise.all(['slow', 'one', 'two'].map((text) => thread.render({ text })))
    expect(answers.map((pdf) => pdf.toString())).toEqual(['slow', 'one', 'two'])
    expect(Buffer.isBuffer(answers[0])).toBe(true)
  })

  it("fails a request with the renderer's error and goes on with the next", async () => {
    const thread = newThread()
    await expect(thread.render({ text: 'fail' })).rejects.toThrow('no glyph for that')
    expect((await thread.render({ text: 'after' })).toString()).toBe('after')
  })

  it('fails what a thread that died had, and starts a new one for the next request', async () => {
    const thread = newThread()
    const slow = thread.render({ text: 'slow' })
    await expect(thread.render({ text: 'die' })).rejects.toThrow('exit code 3')
    await expect(slow).rejects.toThrow('exit code 3')
    expect((await thread.render({ text: 'again' })).toString()).toBe('again')
  })

  it('fails what it still had when closed', async () => {
    const thread = newThread()
    const pending = thread.render({ text: 'slow' })
    await thread.close()
    await expect(pending).rejects.toThrow('stopped')
  })
})
