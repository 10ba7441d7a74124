import type { FastifyReply } from 'fastify'

/**
 * Answers a generated PDF as a download: never cached (it names the parties
 * and their money), never sniffed as anything else.
 */
export function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(pdf.byteLength))
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(pdf)
}
