import Box from '@mui/material/Box'
import Container from '@mui/material/Container'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { type ReactNode, useEffect } from 'react'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { complaintWindowHours } from '../../lib/constants.ts'

/** When these terms last changed; bump it with every change (and give two months' notice, clause 11). */
export const termsVersionDate = '1 November 2026'

interface Clause {
  id: string
  title: string
  body: ReactNode[]
}

function clauses(supportEmail: string): Clause[] {
  return [
    {
      id: 'about',
      title: '1. About these terms',
      body: [
        'These terms of service govern your use of Pactum, an escrow service that lets a buyer and a seller complete a sale between two people through funds held on their behalf. By creating an account or using Pactum you agree to these terms. Please read them carefully and keep a copy.',
        'These terms are provided in English only. Translations of the app interface are for convenience; if there is any difference, these English terms apply.',
      ],
    },
    {
      id: 'eligibility',
      title: '2. Who can use Pactum',
      body: [
        'You must be over 18 years of age and able to enter into a legally binding contract to open an account or take part in a transaction.',
        'You must give accurate, complete and up-to-date information about yourself, including the country you live in, and keep your sign-in details secure. You may hold only one account, and you may not use Pactum on behalf of another person without their authority.',
      ],
    },
    {
      id: 'escrow',
      title: '3. How the escrow service works',
      body: [
        'Either the buyer or the seller can start a transaction. Pactum then generates a unique join code that the other party uses to join it after signing in or registering.',
        'The buyer pays the full amount, including the fee, in advance. The funds are held by our regulated payment provider and are not released to the seller until the conditions of the transaction are met.',
        `For goods sent by post or courier, the funds are released to the seller when the item has been delivered and no complaint has been made within ${complaintWindowHours} hours of delivery. For face-to-face sales, the buyer pays a deposit in advance and the remainder at the handover; the same ${complaintWindowHours}-hour window then applies.`,
        'Once the buyer has authorised a payment it cannot be revoked by the buyer. If something goes wrong, the buyer should use the complaint process described below.',
      ],
    },
    {
      id: 'fees',
      title: '4. Fees',
      body: [
        'The buyer pays a buyer protection fee on top of the price. The exact fee is shown before payment, and you will never be charged more than the amount shown when you authorise the payment.',
        'Sellers are paid out the agreed price, less any fee shown to the seller when the transaction was created. Your bank or card issuer may charge its own fees, for example for currency conversion; these are not controlled by Pactum.',
      ],
    },
    {
      id: 'sellers',
      title: '5. Payouts to sellers',
      body: [
        'To receive payouts, sellers must provide personal details, bank details and, where our payment provider requires it, an identity document. We may delay a payout until this information has been checked.',
        'We may refuse or suspend payouts where we reasonably suspect fraud, money laundering or a breach of these terms, and will tell you why unless the law prevents us from doing so.',
      ],
    },
    {
      id: 'complaints-transaction',
      title: '6. Complaints about a transaction',
      body: [
        `Only the buyer can start a dispute about a transaction. A complaint must be made within ${complaintWindowHours} hours of the item being delivered or handed over. After this window closes, the funds are released to the seller and the transaction can no longer be disputed through Pactum.`,
        'While a complaint is open, the funds stay on hold. We may ask both parties for evidence, such as photographs, tracking details or messages, and will decide fairly on the basis of the information available.',
      ],
    },
    {
      id: 'refunds',
      title: '7. Cancellations and refunds',
      body: [
        'A transaction can be cancelled before it has been paid. If a paid transaction is cancelled, or a complaint is upheld, the amount held is refunded to the buyer using the original payment method.',
        'Refunds are usually issued within 5 business days of the decision, although it may take longer for your bank or card issuer to show them. Where an item must be returned to get a refund, the buyer must return it in the condition it was received.',
      ],
    },
    {
      id: 'unauthorised',
      title: '8. Unauthorised or incorrect payments',
      body: [
        'If you believe a payment was made from your account or card without your permission, or was carried out incorrectly, tell us as soon as possible.',
        'You must tell us no later than 13 months after the date the payment was taken. If you do so, and you have not acted fraudulently or with gross negligence, we will refund the payment in line with the law.',
      ],
    },
    {
      id: 'service-complaints',
      title: '9. Complaints about our service',
      body: [
        <>
          If you are unhappy with our service, contact us at <Link href={`mailto:${supportEmail}`}>{supportEmail}</Link> or through the
          contact form in the app.
        </>,
        'We will aim to resolve your complaint and send you a summary resolution within 3 business days. If we cannot, we will send you a final response within 8 weeks of receiving your complaint.',
        'If you are not satisfied with our final response, or we have not responded within 8 weeks, you may be able to refer your complaint to the financial ombudsman or dispute resolution body in your country.',
      ],
    },
    {
      id: 'acceptable-use',
      title: '10. Acceptable use',
      body: [
        'You must not use Pactum to buy or sell illegal, counterfeit, stolen or prohibited goods, to launder money, or to mislead another user. We may suspend or close accounts that break this rule and report them to the authorities.',
      ],
    },
    {
      id: 'changes',
      title: '11. Changes to these terms',
      body: [
        "We will give you at least two months' notice by e-mail before any change to these terms takes effect. If you do not agree with the change, you may close your account free of charge before it takes effect. If you keep using Pactum after that date, you will be asked to accept the updated terms.",
      ],
    },
    {
      id: 'closing',
      title: '12. Closing your account',
      body: [
        'You may close your account at any time from the Account page or by contacting us, once all your transactions are completed or cancelled. We may close your account with two months\u2019 notice, or immediately if you have seriously breached these terms.',
        'We keep the records we are required to keep by law, such as payment and identity records, even after your account is closed.',
      ],
    },
    {
      id: 'liability',
      title: '13. Our liability',
      body: [
        'Pactum is not a party to the sale between the buyer and the seller and does not guarantee the quality, safety or legality of the items sold. Nothing in these terms limits any rights you have under consumer protection law or our liability for fraud, death or personal injury caused by our negligence.',
      ],
    },
  ]
}

/** The terms of service (spec §1). Public, and in English only by design. */
export function TermsPage() {
  const { support_email: supportEmail } = useClientConfig()

  useEffect(() => {
    document.title = 'Terms of service – Pactum'
  }, [])

  return (
    <Box lang="en" sx={{ minHeight: '100vh', bgcolor: 'grey.50' }}>
      <Box component="header" sx={{ px: 3, py: 2 }}>
        <Link component={RouterLink} to="/" aria-label="Pactum – go to the app" underline="none">
          <PactumLogo />
        </Link>
      </Box>
      <Container component="main" maxWidth="md" sx={{ pb: 6 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
          Terms of service
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Last updated {termsVersionDate}.
        </Typography>
        <ContentCard testId="terms-of-service">
          {clauses(supportEmail).map((clause) => (
            <Box component="section" key={clause.id} aria-labelledby={`terms-${clause.id}`} sx={{ '& + &': { mt: 3 } }}>
              <Typography id={`terms-${clause.id}`} variant="h6" component="h2" sx={{ mb: 1 }}>
                {clause.title}
              </Typography>
              {clause.body.map((paragraph, index) => (
                // Static text, never reordered: the index is a stable key.
                <Typography key={index} sx={{ mb: 1 }}>
                  {paragraph}
                </Typography>
              ))}
            </Box>
          ))}
        </ContentCard>
      </Container>
    </Box>
  )
}
