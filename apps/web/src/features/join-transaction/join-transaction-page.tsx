import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import { joinCodeLength } from '@pactum/domain/join-code-format'
import type { TFunction } from '../../i18n/translator.ts'
import { type FormEvent, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useNavigate } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { foreignJoinCodeCharacters, joinCodeProgress, type JoinInputReading, readJoinInput } from './join-input.ts'

/** The sentence naming what is wrong with a submitted input. */
function problemText(t: TFunction, reading: Exclude<JoinInputReading, { valid: true }>): string {
  switch (reading.reason) {
    case 'characters':
      return t('joinTransaction.charactersNotAllowed', { characters: reading.characters })
    case 'length':
      return t('joinTransaction.codeInvalid', { count: joinCodeLength })
    default:
      return t(`joinTransaction.inputProblem.${reading.reason}`)
  }
}

/** The join form: a join code, a listing code, or either link pasted whole (issue 12). */
export function JoinTransactionPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const invalidForm = useInvalidFormSnackbar()
  const [code, setCode] = useState('')
  const [showError, setShowError] = useState(false)
  const reading = readJoinInput(code)
  const remaining = joinCodeProgress(code)
  // Said as they are typed, and left in the field: dropping them silently would leave a different code.
  const foreign = foreignJoinCodeCharacters(code)
  const problem = showError && !reading.valid ? problemText(t, reading) : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!reading.valid) {
      setShowError(true)
      invalidForm.show()
      return
    }
    navigate(reading.path)
  }

  return (
    <>
      <PageHeader title={t('joinTransaction.title')} intro={t('joinTransaction.intro')} />
      <ContentCard>
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 480 }}>
          <TextField
            label={t('joinTransaction.inputLabel')}
            value={code}
            onChange={(event) => {
              setCode(event.target.value)
              setShowError(false)
            }}
            error={problem !== null || foreign.length > 0}
            helperText={
              problem ??
              (foreign.length > 0
                ? t('joinTransaction.charactersNotAllowed', { characters: foreign })
                : remaining === null || remaining === joinCodeLength
                  ? t('joinTransaction.inputHint', { length: joinCodeLength })
                  : remaining > 0
                    ? t('joinTransaction.codeRemaining', { count: remaining })
                    : t('joinTransaction.codeComplete'))
            }
            required
            autoComplete="off"
            slotProps={{
              htmlInput: {
                'data-testid': 'join-code-input',
                autoCapitalize: 'none',
                spellCheck: false,
                style: { fontFamily: 'monospace', fontSize: 18 },
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
