import type { ClientConfig } from '@pactum/contracts/client-config'
import { createContext, type ReactNode, useContext } from 'react'

const ClientConfigContext = createContext<ClientConfig | null>(null)

export function ClientConfigProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  return <ClientConfigContext value={config}>{children}</ClientConfigContext>
}

export function useClientConfig(): ClientConfig {
  const config = useContext(ClientConfigContext)
  if (!config) throw new Error('useClientConfig needs a <ClientConfigProvider>')
  return config
}
