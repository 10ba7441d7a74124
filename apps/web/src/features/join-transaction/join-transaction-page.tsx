import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import { charactersOutsideJoinCodes, checkJoinCode, joinCodeLength, tidyJoinCode } from '@pactum/domain/join-code-format'
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
  // Said as they are typed, and left in the field: dropping them silently would leave a different code.
  const foreign = charactersOutsideJoinCodes(code)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const check = checkJoinCode(code)
    if (!check.valid) {
      setShowError(true)
      invalidForm.show()
      return
    }
    navigate(routeTo('joinTransactionByCode', { id: check.code }))
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
              // Case and separators are forgiven (a pasted "abcd-2345" fits); anything past the length is cut.
              setCode(Array.from(tidyJoinCode(event.target.value)).slice(0, joinCodeLength).join(''))
              setShowError(false)
            }}
            error={showError || foreign.length > 0}
            helperText={
              foreign.length > 0
                ? t('joinTransaction.charactersNotAllowed', { characters: foreign })
                : showError
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
