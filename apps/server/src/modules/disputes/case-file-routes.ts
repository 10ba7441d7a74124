import { pdfDocumentRoutes } from '../transactions/routes/document-routes.ts'
import { buildCaseFile } from './case-file.ts'
import { renderCaseFilePdf } from './case-file-pdf.ts'

/**
 * GET …/case_file (issue 32 item 4): the admin's for any transaction, and
 * each party's for their own under their kind's prefix (others 404).
 */
export function caseFileRoutes() {
  return pdfDocumentRoutes({
    segment: 'case_file',
    what: 'The case file',
    summary: {
      party: 'The case file as one PDF (either party)',
      admin: 'The case file as one PDF (any transaction with a complaint)',
    },
    description:
      'One PDF with the transaction, the complaint and its deadlines, the settlement offers, every step of the history, ' +
      'the messages, the evidence (every attachment with its SHA-256 as the history recorded it) and the decision. ' +
      'Only once the transaction has a complaint (404 `not_found` before, as GET …/case).',
    fileName: (id) => `pactum-case-${id.slice(-12)}.pdf`,
    render: async (db, row, { admin }, now, locale) =>
      renderCaseFilePdf(await buildCaseFile(db, row, admin ? 'admin' : 'party', now), locale),
  })
}
