import Box from '@mui/material/Box'

/**
 * An e-mail's HTML as a mail client would show it, in a frame that may do
 * nothing: `sandbox=""` allows no scripts, no forms, no navigation and gives
 * the document an origin of its own, so markup a user smuggled into a mail
 * could not touch the admin's page even if the server's escaping failed.
 * The links show where they lead; following one is a copy and paste away.
 */
export function MailHtmlFrame({ html, title }: { html: string; title: string }) {
  return (
    <Box
      component="iframe"
      sandbox=""
      srcDoc={html}
      title={title}
      data-testid="dev-mail-html"
      sx={{ display: 'block', width: '100%', height: '70vh', minHeight: 480, border: 1, borderColor: 'divider', borderRadius: 1 }}
    />
  )
}
