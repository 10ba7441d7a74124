import { Worker } from 'node:worker_threads'

interface Pending {
  resolve: (pdf: Buffer) => void
  reject: (error: Error) => void
}

type Answer = { id: number; pdf: Uint8Array } | { id: number; error: string }

/**
 * Lays PDFs out on a thread of their own (the worker module at `workerUrl`
 * answers `{ id, pdf }` or `{ id, error }` for each `{ id, ...request }`).
 *
 * A PDF is CPU work with nothing to wait on: a receipt takes several
 * milliseconds, and every release's e-mail carries one. On the main thread
 * that work held up requests, timers and the provider's calls, and was the
 * limit on how fast a backlog of releases' e-mails went out (issue 36: about
 * half the server's CPU then, on a machine whose other core was partly
 * idle). One thread, started on first use; it keeps the process alive only
 * while it has work. If it dies, what it had fails (the e-mail's job tries
 * again) and the next request starts a new one.
 */
export class PdfThread<Request extends object> {
  readonly #workerUrl: URL
  #worker: Worker | null = null
  readonly #pending = new Map<number, Pending>()
  #nextId = 1

  constructor(workerUrl: URL) {
    this.#workerUrl = workerUrl
  }

  render(request: Request): Promise<Buffer> {
    const worker = this.#started()
    const id = this.#nextId++
    return new Promise<Buffer>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      if (this.#pending.size === 1) worker.ref()
      worker.postMessage({ ...request, id })
    })
  }

  /** Stops the thread; what it still had fails. */
  async close(): Promise<void> {
    const worker = this.#worker
    this.#worker = null
    if (worker) await worker.terminate()
    this.#failAll(new Error('The PDF thread was stopped'))
  }

  #started(): Worker {
    if (this.#worker) return this.#worker
    const worker = new Worker(this.#workerUrl)
    worker.unref()
    worker.on('message', (answer: Answer) => {
      const pending = this.#pending.get(answer.id)
      if (!pending) return
      this.#pending.delete(answer.id)
      if (this.#pending.size === 0) worker.unref()
      if ('error' in answer) pending.reject(new Error(answer.error))
      else pending.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength))
    })
    const gone = (error: Error) => {
      if (this.#worker !== worker) return
      this.#worker = null
      this.#failAll(error)
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`The PDF thread stopped (exit code ${code})`)))
    this.#worker = worker
    return worker
  }

  #failAll(error: Error): void {
    const pending = [...this.#pending.values()]
    this.#pending.clear()
    for (const { reject } of pending) reject(error)
  }
}
