import { createContext, type ReactNode, useContext, useMemo, useState } from 'react'

/**
 * Lets a help page reopen the guided tour (spec §2), which the shell shows:
 * the help feature and the tour feature meet here rather than import each
 * other.
 */
interface GuidedTourLauncher {
  reopened: boolean
  reopen: () => void
  close: () => void
}

const LauncherContext = createContext<GuidedTourLauncher | null>(null)

export function GuidedTourLauncherProvider({ children }: { children: ReactNode }) {
  const [reopened, setReopened] = useState(false)
  const value = useMemo(() => ({ reopened, reopen: () => setReopened(true), close: () => setReopened(false) }), [reopened])
  return <LauncherContext value={value}>{children}</LauncherContext>
}

export function useGuidedTourLauncher(): GuidedTourLauncher {
  const launcher = useContext(LauncherContext)
  if (!launcher) throw new Error('useGuidedTourLauncher needs a GuidedTourLauncherProvider')
  return launcher
}
