import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import { isJoinCode, joinCodeLength, normaliseJoinCodeInput } from '@pactum/domain/join-code-format'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { routeTo } from '../../lib/named-routes.ts'

export function JoinTransactionPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const invalidForm = useInvalidFormSnackbar()
  const [code, setCode] = useState('')
  const [showError, setShowError] = useState(false)
  const remaining = joinCodeLength - code.length

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!isJoinCode(code)) {
      setShowError(true)
      invalidForm.show()
      return
    }
    navigate(routeTo('joinTransactionByCode', { id: code }))
  }

  return (
    <>
      <PageHeader title={t('joinTransaction.title')} intro={t('joinTransaction.intro')} />
      <ContentCard>
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 360 }}>
          <TextField
            label={t('joinTransaction.codeLabel')}
            value={code}
            onChange={(event) => {
              setCode(normaliseJoinCodeInput(event.target.value))
              setShowError(false)
            }}
            error={showError}
            helperText={
              showError
                ? t('joinTransaction.codeInvalid', { count: joinCodeLength })
                : remaining > 0
                  ? t('joinTransaction.codeRemaining', { count: remaining })
                  : t('joinTransaction.codeComplete')
            }
            required
            autoComplete="off"
            slotProps={{
              htmlInput: {
                'data-testid': 'join-code-input',
                maxLength: joinCodeLength,
                autoCapitalize: 'characters',
                spellCheck: false,
                style: { fontFamily: 'monospace', fontSize: 22, letterSpacing: '0.3em' },
              },
            }}
          />
          <Button type="submit" variant="contained" size="large" data-testid="join-continue">
            {t('joinTransaction.continue')}
          </Button>
        </Box>
      </ContentCard>
    </>
  )
}
