import path from 'node:path'
import { createSmtpMailer } from '../../adapters/mailer/smtp-mailer.ts'
import type { MailConfig } from '../../mail-config.ts'
import { answered, ok, type ProviderReport, warning } from '../report.ts'

/** E-mail: files under DATA_DIR/mail (the dev mailbox), or SMTP, checked by logging in without sending. */
export async function checkMail(mail: MailConfig, dataDir: string): Promise<ProviderReport> {
  const from = ok('from', mail.from.name ? `${mail.from.name} <${mail.from.address}>` : mail.from.address)
  if (mail.transport === 'file') {
    return {
      service: 'e-mail',
      mode: 'sandbox',
      summary: `written as files to ${path.join(dataDir, 'mail')}, readable in the dev mailbox (admins); nothing is sent`,
      checks: [from],
    }
  }
  const { smtp } = mail
  const mailer = createSmtpMailer({ smtp, from: mail.from })
  try {
    const login = await answered('the server answers', async () => {
      await mailer.verify()
      return `connected to ${smtp.host}:${smtp.port}${smtp.auth ? ` and logged in as ${smtp.auth.user}` : ''}`
    })
    return {
      service: 'e-mail',
      mode: 'real',
      summary: `SMTP at ${smtp.host}:${smtp.port}`,
      checks: [
        from,
        smtp.secure || smtp.requireTls
          ? ok('TLS', smtp.secure ? 'from the first byte (smtps://)' : 'STARTTLS required')
          : warning('TLS', 'not required (SMTP_REQUIRE_TLS=false): e-mails and the password may cross the network in clear'),
        smtp.dkim
          ? ok('DKIM', `signed as ${smtp.dkim.keySelector}._domainkey.${smtp.dkim.domainName}`)
          : warning('DKIM', 'not signed here (fine when the SMTP service signs)'),
        login,
      ],
    }
  } finally {
    mailer.close()
  }
}
