import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import { tourCaptionsUrl, tourSteps, tourVideoUrl } from './tour-steps.ts'

/**
 * The guided tour (spec §2): next, back, finish, skip and step indicators.
 * The dialog traps focus; each step's heading takes focus and a live region
 * names the step, so a screen reader hears where it is.
 */
export function GuidedTourDialog({ open, onDone }: { open: boolean; onDone: (how: 'finished' | 'skipped') => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [index, setIndex] = useState(0)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const titleId = useId()
  const bodyId = useId()
  const videoDescriptionId = useId()
  const step = tourSteps[index] ?? 'transactSafely'
  const last = index === tourSteps.length - 1
  const position = t('tour.position', { current: index + 1, total: tourSteps.length })

  // Back to the start whenever the tour opens again (from the help pages).
  useEffect(() => {
    if (open) setIndex(0)
  }, [open])
  const firstStep = useRef(true)
  useEffect(() => {
    // Not on opening: the dialog focuses itself then.
    if (firstStep.current) {
      firstStep.current = false
      return
    }
    headingRef.current?.focus()
  }, [index])

  return (
    <Dialog
      open={open}
      onClose={() => onDone('skipped')}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="sm"
      data-testid="guided-tour"
    >
      <DialogTitle id={titleId}>{t('tour.title')}</DialogTitle>
      <DialogContent>
        <Box aria-live="polite" sx={visuallyHidden} data-testid="guided-tour-announcement">
          {`${position}: ${t(`tour.steps.${step}.title`)}`}
        </Box>
        <Typography variant="overline" component="p" color="text.secondary" aria-hidden>
          {position}
        </Typography>
        <Typography variant="h6" component="h3" ref={headingRef} tabIndex={-1} sx={{ outline: 'none', mb: 1 }}>
          {t(`tour.steps.${step}.title`)}
        </Typography>
        <Typography id={bodyId} color="text.secondary">
          {t(`tour.steps.${step}.body`)}
        </Typography>
        {step === 'video' && (
          <Box sx={{ mt: 2 }}>
            {/* Muted and never autoplayed: the person starts it; the captions and the text below carry what it shows. */}
            <video
              controls
              muted
              preload="metadata"
              width="100%"
              aria-describedby={videoDescriptionId}
              aria-label={t('tour.video.label')}
              style={{ borderRadius: 8, background: '#1b1f2e', display: 'block' }}
              data-testid="guided-tour-video"
            >
              <source src={tourVideoUrl} type="video/webm" />
              <track
                kind="captions"
                src={tourCaptionsUrl(locale)}
                srcLang={locale.replace('_', '-')}
                label={t('tour.video.captions')}
                default
              />
            </video>
            <Typography id={videoDescriptionId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('tour.video.description')}
            </Typography>
          </Box>
        )}
        <Box
          component="ol"
          aria-label={t('tour.indicators')}
          sx={{ display: 'flex', gap: 1, listStyle: 'none', p: 0, m: 0, mt: 3, justifyContent: 'center' }}
        >
          {tourSteps.map((id, stepIndex) => (
            <li key={id}>
              <Box
                component="button"
                type="button"
                onClick={() => setIndex(stepIndex)}
                aria-current={stepIndex === index ? 'step' : undefined}
                aria-label={t('tour.goToStep', { current: stepIndex + 1, title: t(`tour.steps.${id}.title`) })}
                sx={{
                  width: 24,
                  height: 24,
                  p: 0,
                  border: 0,
                  background: 'none',
                  cursor: 'pointer',
                  display: 'grid',
                  placeItems: 'center',
                  borderRadius: '50%',
                  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
                  '&::after': {
                    content: '""',
                    width: 12,
                    height: 12,
                    borderRadius: '50%',
                    bgcolor: stepIndex === index ? 'primary.main' : 'transparent',
                    border: 2,
                    borderColor: 'primary.main',
                  },
                }}
              />
            </li>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between', px: 3, pb: 2 }}>
        <Button onClick={() => onDone('skipped')} data-testid="guided-tour-skip">
          {t('tour.skip')}
        </Button>
        <Box sx={{ display: 'flex', gap: 1 }}>
          {index > 0 && (
            <Button variant="outlined" onClick={() => setIndex(index - 1)} data-testid="guided-tour-back">
              {t('tour.back')}
            </Button>
          )}
          {last ? (
            <Button variant="contained" onClick={() => onDone('finished')} data-testid="guided-tour-finish">
              {t('tour.finish')}
            </Button>
          ) : (
            <Button variant="contained" onClick={() => setIndex(index + 1)} data-testid="guided-tour-next">
              {t('tour.next')}
            </Button>
          )}
        </Box>
      </DialogActions>
    </Dialog>
  )
}
